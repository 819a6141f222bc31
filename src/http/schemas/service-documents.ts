/** The status and health documents (REFERENCE §3.1), answered without a key. */
import { Type } from '@sinclair/typebox';

export const StatusDocument = Type.Object(
  {
    data: Type.Object({
      type: Type.Literal('status'),
      id: Type.Literal('pubg-api'),
      attributes: Type.Object({
        releasedAt: Type.String({ description: 'When this process started (ISO 8601, UTC)' }),
        version: Type.String({ description: 'The service version, `v` first' }),
      }),
    }),
  },
  {
    $id: 'StatusDocument',
    description: 'The service status: clients use it as a health check.',
    examples: [
      {
        data: {
          type: 'status',
          id: 'pubg-api',
          attributes: { releasedAt: '2026-11-20T08:00:00Z', version: 'v0.1.0' },
        },
      },
    ],
  },
);

export const HealthDocument = Type.Object(
  {
    data: Type.Object({
      type: Type.Literal('health'),
      id: Type.Union([Type.Literal('healthz'), Type.Literal('readyz')]),
      attributes: Type.Object({
        status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
          description: '`degraded`: ready, but rate limits are counted per instance (Redis lost)',
        }),
        store: Type.Optional(Type.Literal('ok', { description: 'Readiness only' })),
        rateLimits: Type.Optional(
          Type.Union([Type.Literal('shared'), Type.Literal('per-instance')], {
            description: 'Readiness only: whether every instance counts into one budget',
          }),
        ),
        detail: Type.Optional(Type.String({ description: 'What is degraded, in words' })),
      }),
    }),
  },
  {
    $id: 'HealthDocument',
    description: 'A probe answer for load balancers and orchestrators.',
    examples: [
      {
        data: {
          type: 'health',
          id: 'readyz',
          attributes: { status: 'ok', store: 'ok', rateLimits: 'shared' },
        },
      },
    ],
  },
);
