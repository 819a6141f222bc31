/**
 * TypeBox schemas of the ingest endpoints, for the OpenAPI document. The request bodies are
 * documentation only: the routes take the body as bytes (a recorded document is kept as given)
 * and the ingest pipeline validates it, naming the offending field.
 */
import { Type } from '@sinclair/typebox';
import { MatchInput, TelemetryEventInput } from '../ingest/match-input.ts';

const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

/** A match document as the real service serves it (REFERENCE §3.9), any era since 2018. */
export const RecordedMatchDocument = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal('match'),
        id: Uuid,
        attributes: Type.Object({}, { additionalProperties: true }),
        relationships: Type.Object({}, { additionalProperties: true }),
      },
      { additionalProperties: true },
    ),
    included: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  {
    additionalProperties: true,
    title: 'A recorded match document',
    description:
      'A JSON:API match document as recorded from the public API; kept byte for byte and served with its links naming this service. It must carry every member its era carries.',
  },
);

export const IngestMatchBody = Type.Union([MatchInput, RecordedMatchDocument], {
  description:
    'One finished match: the ingest format (telemetry inline, optional) or a recorded JSON:API match document. `Content-Encoding: gzip` accepted.',
});

export const TelemetryBody = Type.Array(TelemetryEventInput, {
  description:
    'The telemetry file: a JSON array of events, plain or gzip (`Content-Encoding: gzip`); stored byte for byte.',
});

export const IngestQuery = Type.Object({
  region: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9-]{1,32}$',
      description: 'Platform-region shard for a recorded document that names none (e.g. pc-eu).',
    }),
  ),
});

export const TelemetryParams = Type.Object({
  matchId: { ...Uuid, description: 'Id of a stored match.' },
});

export const IngestResultDocument = Type.Object(
  {
    data: Type.Object({ type: Type.Literal('match'), id: Type.String() }),
    meta: Type.Object({
      result: Type.Union(
        [Type.Literal('ingested'), Type.Literal('attached'), Type.Literal('unchanged')],
        { description: 'What the request did.' },
      ),
      telemetry: Type.Boolean({
        description:
          'Whether the telemetry file is stored; until it is, the match document names no asset.',
      }),
    }),
  },
  { description: "The match's resource identifier." },
);

export const ErrorDocument = Type.Object(
  {
    errors: Type.Array(Type.Object({ title: Type.String(), detail: Type.String() }), {
      minItems: 1,
    }),
  },
  { description: 'A JSON:API error document.' },
);

const error = (description: string) => ({ ...ErrorDocument, description });

/** The error answers both ingest endpoints share. */
export const INGEST_ERRORS = {
  400: error('Invalid input, the offending field named in `detail`; nothing is written.'),
  401: error('API key missing or invalid.'),
  403: error('The key is not an ingest key.'),
  413: error('The body (counted unzipped) is larger than INGEST_MAX_MB.'),
  415: error('Content-Type is not JSON, or the body is encoded other than gzip.'),
  429: error("Over the key's ingest budget; `Retry-After` says when to try again."),
};
