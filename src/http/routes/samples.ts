import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { ApiError, serviceUnavailable } from '../jsonapi.ts';
import { AWAITED_RETRY_AFTER_SECONDS } from '../../jobs/job-progress.ts';
import { retentionWindowMs } from '../../config.ts';
import { DOCUMENT_KINDS, sampleListTag } from '../../store/document-changes.ts';
import { sampleDocuments } from '../sample-documents.ts';
import { matchListing } from '../keyed-documents.ts';
import { CREATED_AT_START, SampleQuery, sampleTimeFilter } from '../sample-filter.ts';
import { requestShard } from '../shards.ts';
import { recordedPlatform } from '../../domain/shards.ts';
import { SampleDocument } from '../schemas/sample-document.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';
import { pathOf, readThroughList } from '../../upstream/read-through.ts';

const ShardParams = Type.Object({ shard: Type.String() });
const VARY = Object.freeze({ vary: 'Accept-Encoding' });

const docs = {
  summary: 'Random matches of a day',
  description:
    'On a platform-region shard, the newest sample of the region, or with ' +
    '`filter[createdAt-start]` the one of the UTC day holding that time (up to RETENTION_DAYS ' +
    'back). On a platform shard, the samples of all its regions of that time, as one; on ' +
    '`console`, those of both console platforms. A sample is published once its day has ' +
    'closed. Other filters are ignored.',
  operationId: 'getSamples',
  tags: ['samples'],
  response: {
    200: documentResponse('The sample', SampleDocument),
    400: errorResponse(
      400,
      'filter[createdAt-start] is malformed, in the future, or older than retention',
    ),
    404: errorResponse(404, 'Unknown shard, or no sample published for that time yet'),
    503: errorResponse(
      503,
      'No sample yet and the job drawing samples runs since the service started (see Retry-After)',
    ),
  },
};

/**
 * `GET /shards/:shard/samples[?filter[createdAt-start]=<time>]` (keyed). On a platform-region
 * shard (spec), the newest list of the region, or the one whose window holds the time — up to
 * RETENTION_DAYS back (older: 400), not in the future (400); a window not closed yet is a 404
 * saying when its list is published. On a platform shard, as the real service answers
 * `steam`: the lists of all its regions of that time, as one sample. Served gzipped as stored.
 * With an upstream (UPSTREAM_URL), the upstream's sample as recorded; the one this service drew
 * from its own (mirrored) matches only while none is recorded and the upstream cannot say.
 */
export function sampleRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, clock, documents, store, mirror } = context;
  const retentionMs = retentionWindowMs(config);
  const samples = sampleDocuments(context);

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/shards/:shard/samples',
    {
      schema: { ...docs, params: ShardParams, querystring: SampleQuery },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.samples, async () => {
        // `console` too: the samples of both console platforms' regions, as one.
        const shard = requestShard(request.params.shard, config, { combined: true });
        const at = sampleTimeFilter(request.query[CREATED_AT_START], {
          now: clock.now(),
          retentionDays: config.retentionDays,
        });
        const start = request.query[CREATED_AT_START];
        const id = `${shard.spelling}:${start ?? 'latest'}`;
        const query =
          start === undefined ? '' : `?${CREATED_AT_START}=${encodeURIComponent(start)}`;
        const path = `${pathOf(request.url)}${query}`;
        const { recording, upstreamError } = await readThroughList(
          { mirror, store },
          // A combined shard's recordings are its own (the mirror keeps them under its name).
          { kind: 'sample', shard: shard.spelling, platform: recordedPlatform(shard), id, path },
          reply,
        );
        // Its links.self is the upstream's permalink of the sample, naming this service.
        if (recording !== null) return { body: recording.body, tags: [], headers: VARY };
        const { sample, freshUntil } = await samples.find(shard, at).catch((error: unknown) => {
          // Nothing drawn here and the upstream could not be asked: its 503 or 429.
          if (upstreamError !== null && error instanceof ApiError && error.status === 404) {
            throw upstreamError;
          }
          // Missing while the start's first samples run draws it: ask again soon, not "never".
          if (
            error instanceof ApiError &&
            error.status === 404 &&
            context.jobProgress?.awaiting('samples')
          ) {
            throw serviceUnavailable(
              'Samples are being drawn since the service started; try again shortly',
              AWAITED_RETRY_AFTER_SECONDS,
            );
          }
          throw error;
        });
        // Its oldest match leaving retention changes it, and a purge that takes entries from
        // its lists; a new list is announced by its job.
        const { validUntil } = matchListing(
          Number.isFinite(sample.oldestMatchAt) ? sample.oldestMatchAt : null,
          retentionMs,
        );
        return {
          body: sample.body,
          tags: sample.listIds.map(sampleListTag),
          headers: VARY,
          clientFreshUntil: freshUntil,
          validUntil,
        };
      }),
  );
}
