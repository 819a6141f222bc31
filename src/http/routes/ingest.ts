import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { RouteContext } from '../route-context.ts';
import { apiKeyGuard } from '../api-key-guard.ts';
import { ApiError, sendDocument } from '../jsonapi.ts';
import { ingestApiError, JSON_TYPES } from '../ingest-api-error.ts';
import {
  INGEST_ERRORS,
  IngestMatchBody,
  IngestQuery,
  IngestResultDocument,
  TelemetryBody,
  TelemetryParams,
  ErrorDocument,
} from '../ingest-schemas.ts';
import { canonicalMatchDocumentVariant, matchUrl } from '../../presenters/match-document.ts';
import { renderIngestResult } from '../../presenters/ingest-result-document.ts';
import { ingestContent, parseJson } from '../../ingest/ingest-content.ts';
import { attachTelemetry } from '../../ingest/ingest-match.ts';
import { attachHandedOverTelemetry, ingestHandedOverBytes } from '../../ingest/ingest-prepared.ts';
import { bodyReceiver, receiveBody } from '../body-receipt.ts';
import { reusableBuffers } from '../../ingest/reusable-buffers.ts';
import type { IngestResult } from '../../ingest/ingest-deps.ts';

/**
 * `POST /ingest/matches` and `PUT /ingest/matches/:matchId/telemetry`: game servers (or
 * archivists) push finished matches with an ingest-scoped key, through the same ingest function
 * as `gamedata ingest`. Bodies are taken as bytes — a recorded document is kept as given, a
 * telemetry file stored as given (gzip included) — and are bounded by INGEST_MAX_MB, counted
 * unzipped. Counted against the key's own ingest budget, never a read budget.
 */
/**
 * Posted bodies up to this size are received into buffers kept for the next ones: a posted
 * match with default telemetry is 2–3 MB; one with full-size telemetry (20 MB) gets its own.
 */
const REUSED_BODY_BYTES = 8 * 1_048_576;

export function ingestRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;
  const requireIngestKey = apiKeyGuard(context.store, context.clock, context.changes, 'ingest');
  const limitMb = Math.round(config.ingestMaxBytes / 1024 / 1024);

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Received into one buffer as it arrives, not joined in one go at its end. A posted match
    // that a worker process gets a copy of lands in a buffer kept for the next one, given
    // back once the worker's outcome is in (a fresh one's page faults cost the serving thread
    // more than receiving it); a telemetry file, which may be kept as it came, never does.
    const pool = context.ingestPool ?? null;
    const bodies = pool?.copies ? reusableBuffers(pool.size + 1, REUSED_BODY_BYTES) : null;
    scope.addContentTypeParser(
      JSON_TYPES,
      bodies ? bodyReceiver(bodies, (request) => request.method === 'POST') : receiveBody,
    );
    // The bodies are validated by ingest, which names the field; only params and query here.
    scope.setValidatorCompiler((route) =>
      route.httpPart === 'body'
        ? () => true
        : TypeBoxValidatorCompiler(route as Parameters<typeof TypeBoxValidatorCompiler>[0]),
    );
    // Content coding names are case-insensitive (RFC 9110 §8.4.1); the plugin compares exactly.
    scope.addHook('onRequest', async (request) => {
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined)
        request.headers['content-encoding'] = encoding.trim().toLowerCase();
    });
    // Thrown on to the app's handler, which answers every ApiError as a JSON:API document.
    scope.setErrorHandler((error: FastifyError) => {
      throw ingestApiError(error, limitMb);
    });

    const answer = (
      request: FastifyRequest,
      reply: FastifyReply,
      result: IngestResult,
      created: boolean,
    ): FastifyReply => {
      const variant = canonicalMatchDocumentVariant(result.platform, config);
      if (created) reply.header('location', matchUrl(variant, result.matchId));
      return sendDocument(request, reply, renderIngestResult(result), created ? 201 : 200);
    };

    scope.post(
      '/ingest/matches',
      {
        onRequest: requireIngestKey,
        bodyLimit: config.ingestMaxBytes,
        // gzip only, as the telemetry route; the body limit then applies to the unzipped bytes.
        decompress: { requestEncodings: ['gzip', 'identity'] },
        config: { budget: 'ingest' },
        schema: {
          summary: 'Ingest one finished match',
          description:
            'Stores a finished match — the ingest format (schemas/match-input.schema.json), telemetry inline or sent later, or a recorded JSON:API match document — and derives everything else from it. Idempotent: the same match again answers 200 and changes nothing, except that a match stored without telemetry takes the inline telemetry it now comes with.',
          operationId: 'ingestMatch',
          tags: ['ingest'],
          security: [{ ingestKey: [] }],
          consumes: JSON_TYPES,
          querystring: IngestQuery,
          body: IngestMatchBody,
          response: {
            200: {
              ...IngestResultDocument,
              description: 'Already stored (telemetry maybe attached).',
            },
            201: { ...IngestResultDocument, description: 'Stored; `Location` is its match URL.' },
            409: {
              ...ErrorDocument,
              description: 'The match already has a different telemetry file.',
            },
            ...INGEST_ERRORS,
          },
        },
      },
      async (request: FastifyRequest<{ Querystring: { region?: string } }>, reply) => {
        const region = request.query.region;
        // A match in the ingest format is prepared by the pool's workers, its bytes handed over
        // (and stored by them too, when they hold a store: the feed is read before answering);
        // anything else (a recorded document, JSON that is no match) comes back to be parsed
        // and ingested here.
        const posted = request.body as Buffer;
        const prepared =
          pool === null
            ? null
            : await ingestHandedOverBytes(context, pool, posted, () => context.changes.poll());
        if (prepared !== null && !('other' in prepared)) {
          // Stored by a worker, which had all of the bytes before it answered.
          bodies?.give(posted);
          return answer(request, reply, prepared, prepared.status === 'ingested');
        }
        const body = prepared?.other ?? posted;
        const result = await ingestContent(context, parseJson(body), {
          raw: body,
          ...(region ? { region } : {}),
        });
        return answer(request, reply, result, result.status === 'ingested');
      },
    );

    scope.put(
      '/ingest/matches/:matchId/telemetry',
      {
        onRequest: requireIngestKey,
        bodyLimit: config.ingestMaxBytes,
        // Not decompressed: a gzip file is stored exactly as sent (ingest unzips it to check it).
        decompress: false,
        config: { budget: 'ingest' },
        schema: {
          summary: "Attach a stored match's telemetry file",
          description:
            'The telemetry of a match stored without it, as a JSON array of events, plain or gzip (`Content-Encoding: gzip`), stored byte for byte. Until it arrives the match document names no asset; afterwards it names the telemetry URL. The same file again changes nothing; a different one is refused (409).',
          operationId: 'attachMatchTelemetry',
          tags: ['ingest'],
          security: [{ ingestKey: [] }],
          consumes: JSON_TYPES,
          params: TelemetryParams,
          body: TelemetryBody,
          response: {
            200: { ...IngestResultDocument, description: 'The match already has this file.' },
            201: { ...IngestResultDocument, description: 'Attached; `Location` is the match URL.' },
            404: { ...ErrorDocument, description: 'No such match is stored.' },
            409: { ...ErrorDocument, description: 'The match already has a different file.' },
            ...INGEST_ERRORS,
          },
        },
      },
      async (request: FastifyRequest<{ Params: { matchId: string } }>, reply) => {
        const encoding = request.headers['content-encoding'] ?? 'identity';
        if (encoding !== 'gzip' && encoding !== 'identity') {
          throw new ApiError(
            415,
            'Unsupported media type',
            `Content-Encoding '${encoding}' is not accepted; send gzip or plain JSON`,
          );
        }
        // In a worker that stores, when there is one (the feed is read before answering): a
        // file is parsed whole to be checked and tallied, which would hold this thread.
        const { matchId } = request.params;
        const body = request.body as Buffer;
        const result = pool?.stores
          ? await attachHandedOverTelemetry(context, pool, matchId, body, () =>
              context.changes.poll(),
            )
          : await attachTelemetry(context, matchId, body);
        return answer(request, reply, result, result.status === 'attached');
      },
    );
  });
}
