import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { recordingWins } from '../../domain/recording-precedence.ts';
import { findPlayer } from '../../store/players.ts';
import { recordedPlatform, type ResolvedShard } from '../../domain/shards.ts';
import { findSurvivalMastery, findWeaponMastery } from '../../store/mastery-reads.ts';
import { findRecordedDocument } from '../../store/recorded-documents.ts';
import { renderWeaponMastery } from '../../presenters/weapon-mastery-document.ts';
import { renderSurvivalMastery } from '../../presenters/survival-mastery-document.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';
import { notFound, selfLink } from '../jsonapi.ts';
import { DOCUMENT_KINDS, playerTag } from '../../store/document-changes.ts';
import { enforceShardRule, platformSpelling, requestShard } from '../shards.ts';
import { pathOf, readThroughRecorded } from '../../upstream/read-through.ts';
import { SurvivalMasteryDocument, WeaponMasteryDocument } from '../schemas/mastery-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';

/**
 * The platform of the player a mastery request names: the shard's, or on a combined shard the
 * first of its platforms that knows the player (the first when none does: a 404 then).
 */
async function playerPlatform(
  db: RouteContext['store']['db'],
  shard: ResolvedShard,
  accountId: string,
): Promise<string> {
  if (!shard.isCombined) return shard.platform;
  for (const platform of shard.platforms) {
    if ((await findPlayer(db, platform, accountId)) !== null) return platform;
  }
  return shard.platform;
}

/** Mastery is served on platform shards, as the real service's mastery endpoints are. */
const PLATFORM_ONLY = { platform: true, region: false };

const ERRORS = {
  400: errorResponse(400, 'A platform-region shard: mastery is on platform shards'),
  404: errorResponse(404, 'Unknown shard, or no such player (nor a recording of one)'),
};

const PlayerParams = Type.Object({
  shard: Type.String({
    description:
      "Platform shard, e.g. pc-b (or steam with vendor aliases), or console: the player's own console platform.",
  }),
  accountId: Type.String({ description: 'account.<32 hex>' }),
});

/** What differs between the two mastery summaries; the route around them is the same. */
interface MasteryKind<Career> {
  path: string;
  /** The recorded-document kind of the real service's summary. */
  recordedKind: 'weaponMasterySummary' | 'survivalMasterySummary';
  /** Names the endpoint in the platform-region shard error. */
  title: string;
  /** Names the document in the API reference. */
  noun: string;
  schema: { summary: string; description: string; operationId: string };
  document: Parameters<typeof documentResponse>[1];
  find: (db: RouteContext['store']['db'], platform: string, accountId: string) => Promise<Career>;
  /** When the last match that added to this career was played (null: none). */
  latestMatchAt: (career: Career) => number | null;
  render: (accountId: string, platform: string, career: Career, self: string) => string;
}

const WEAPON_MASTERY: MasteryKind<Awaited<ReturnType<typeof findWeaponMastery>>> = {
  path: '/shards/:shard/players/:accountId/weapon_mastery',
  recordedKind: 'weaponMasterySummary',
  title: 'Weapon mastery summaries',
  noun: 'weapon mastery',
  schema: {
    summary: "A player's weapon mastery",
    description:
      'Per weapon the player used (keyed by item id): XP, level 1–100, tier 1–6, career totals, official and ranked totals, medals.',
    operationId: 'getWeaponMastery',
  },
  document: WeaponMasteryDocument,
  find: findWeaponMastery,
  latestMatchAt: (career) => career.latestMatchAt,
  render: (accountId, platform, career, self) =>
    renderWeaponMastery({ accountId, platform, career }, self),
};

const SURVIVAL_MASTERY: MasteryKind<Awaited<ReturnType<typeof findSurvivalMastery>>> = {
  path: '/shards/:shard/players/:accountId/survival_mastery',
  recordedKind: 'survivalMasterySummary',
  title: 'Survival mastery summaries',
  noun: 'survival mastery',
  schema: {
    summary: "A player's survival mastery",
    description:
      'XP, level 1–500, tier 1–5, matches played and, per survival stat, total, average, career best and last match value.',
    operationId: 'getSurvivalMastery',
  },
  document: SurvivalMasteryDocument,
  find: findSurvivalMastery,
  latestMatchAt: (career) => career?.lastMatchAt ?? null,
  render: (accountId, _platform, career, self) =>
    renderSurvivalMastery({ accountId, career }, self),
};

/**
 * `GET /shards/:shard/players/:accountId/weapon_mastery` and `…/survival_mastery` (keyed):
 * mastery derived from the player's ingested matches. Platform shards only, as on the real
 * service. An unknown player is a 404; a known player with no mastery yet gets the document
 * with nothing in it (no weapons; survival all zero at level 1), as the real service answers
 * players without history (season stats zero-filled, REFERENCE §2) and its recorded mastery
 * documents with empty match ids show. A recorded document of the real service is served
 * instead while no match played after its recording has added to the player's mastery
 * (recording-precedence.ts), whether or not the player is otherwise known.
 */
export function masteryRoutes(app: FastifyInstance, context: RouteContext): void {
  masteryRoute(app, context, WEAPON_MASTERY);
  masteryRoute(app, context, SURVIVAL_MASTERY);
}

function masteryRoute<Career>(
  app: FastifyInstance,
  context: RouteContext,
  kind: MasteryKind<Career>,
): void {
  const { config, store, documents, mirror } = context;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    kind.path,
    {
      schema: {
        ...kind.schema,
        tags: ['mastery'],
        params: PlayerParams,
        security: [{ apiKey: [] }],
        response: {
          200: documentResponse(`The ${kind.noun} (or its recording)`, kind.document),
          ...ERRORS,
        },
      },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { accountId } = request.params;
        // `console` too: the player's own console platform, whichever of the two it is.
        const shard = requestShard(request.params.shard, config, { combined: true });
        enforceShardRule(shard, PLATFORM_ONLY, kind.title, config);
        const platform = await playerPlatform(store.db, shard, accountId);
        const tags = [playerTag(platform, accountId)];
        const upstreamError = await readThroughRecorded(
          mirror,
          {
            kind: kind.recordedKind,
            shard: request.params.shard,
            id: accountId,
            path: pathOf(request.url),
          },
          reply,
        );
        const [recording, player, career] = await Promise.all([
          findRecordedDocument(store.db, kind.recordedKind, recordedPlatform(shard), accountId),
          findPlayer(store.db, platform, accountId),
          kind.find(store.db, platform, accountId),
        ]);
        const self = selfLink(config.publicBaseUrl, request);
        if (recording && recordingWins(recording.recordedAt, kind.latestMatchAt(career)))
          return { body: renderRecordedDocument(recording, self), tags };
        if (!player)
          throw upstreamError ?? notFound(`No player '${accountId}' on shard '${shard.spelling}'`);
        return {
          body: kind.render(accountId, platformSpelling(shard, config), career, self),
          tags,
        };
      }),
  );
}
