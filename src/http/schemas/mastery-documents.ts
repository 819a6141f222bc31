/** The weapon and survival mastery documents (REFERENCE §3.14, §3.15). */
import { Type } from '@sinclair/typebox';
import { MEDAL_IDS } from '../../domain/weapon-medals.ts';
import { SURVIVAL_STATS } from '../../domain/survival-mastery.ts';
import { Identifier, SuccessDocument } from './json-api.ts';
import { EXAMPLE_ACCOUNT, EXAMPLE_BASE_URL, EXAMPLE_MATCH } from './examples.ts';

const integers = (names: string) =>
  Object.fromEntries(names.split(' ').map((name) => [name, Type.Integer({ minimum: 0 })]));
const numbers = (names: string) =>
  Object.fromEntries(names.split(' ').map((name) => [name, Type.Number({ minimum: 0 })]));

/** Official (normal) or competitive (ranked) matches only; damage and distance whole numbers. */
export const WeaponKindTotals = Type.Object(
  {
    ...integers(
      'MostDefeatsInAGame Defeats DamagePlayer HeadShots Kills MostKillsInAGame Groggies LongestKill',
    ),
  },
  { $id: 'WeaponKindTotals', description: 'Whole HP and metres, as the real service sends them' },
);

/** One weapon of a player: XP, level, tier, career and per-kind totals, medals. */
export const WeaponSummary = Type.Object(
  {
    XPTotal: Type.Integer({ minimum: 0 }),
    LevelCurrent: Type.Integer({ minimum: 1, maximum: 100 }),
    TierCurrent: Type.Integer({ minimum: 1, maximum: 6 }),
    StatsTotal: Type.Object(
      {
        ...integers(
          'MostDefeatsInAGame Defeats MostHeadShotsInAGame HeadShots LongRangeDefeats Kills ' +
            'MostKillsInAGame Groggies MostGroggiesInAGame',
        ),
        ...numbers('MostDamagePlayerInAGame DamagePlayer LongestDefeat'),
      },
      { description: 'Every counted match. Damage in HP, distances in metres.' },
    ),
    OfficialStatsTotal: Type.Ref(WeaponKindTotals),
    CompetitiveStatsTotal: Type.Ref(WeaponKindTotals),
    Medals: Type.Array(
      Type.Object({
        MedalId: Type.Union(MEDAL_IDS.map((id) => Type.Literal(id))),
        Count: Type.Integer({ minimum: 1 }),
      }),
    ),
  },
  { $id: 'WeaponSummary' },
);

const weaponExample = {
  XPTotal: 14250,
  LevelCurrent: 7,
  TierCurrent: 1,
  StatsTotal: {
    MostDefeatsInAGame: 3,
    Defeats: 9,
    MostDamagePlayerInAGame: 412.5,
    DamagePlayer: 1880.25,
    MostHeadShotsInAGame: 4,
    HeadShots: 11,
    LongestDefeat: 184.2,
    LongRangeDefeats: 2,
    Kills: 8,
    MostKillsInAGame: 3,
    Groggies: 7,
    MostGroggiesInAGame: 3,
  },
  OfficialStatsTotal: {
    MostDefeatsInAGame: 3,
    Defeats: 7,
    DamagePlayer: 1466,
    HeadShots: 9,
    Kills: 6,
    MostKillsInAGame: 3,
    Groggies: 5,
    LongestKill: 184,
  },
  CompetitiveStatsTotal: {
    MostDefeatsInAGame: 2,
    Defeats: 2,
    DamagePlayer: 414,
    HeadShots: 2,
    Kills: 2,
    MostKillsInAGame: 2,
    Groggies: 2,
    LongestKill: 63,
  },
  Medals: [
    { MedalId: 'MedalDeadeye', Count: 3 },
    { MedalId: 'MedalDoubleKill', Count: 1 },
  ],
};

export const WeaponMasteryDocument = SuccessDocument(
  'WeaponMasteryDocument',
  {
    data: Type.Object({
      ...Identifier('weaponMasterySummary', 'The id is the account id').properties,
      attributes: Type.Object({
        platform: Type.String({ description: 'The shard as the request spelled it' }),
        seasonId: Type.String({ description: 'Always `""`: mastery is career-long' }),
        latestMatchId: Type.String({ description: 'Newest match with weapon stats; `""` if none' }),
        weaponSummaries: Type.Record(Type.String(), Type.Ref(WeaponSummary), {
          description: 'By weapon item id (`Item_Weapon_AK47_C` …), only weapons used',
        }),
      }),
    }),
  },
  {
    description:
      "A player's weapon mastery, derived from the telemetry of their matches (or as recorded).",
    examples: [
      {
        data: {
          type: 'weaponMasterySummary',
          id: EXAMPLE_ACCOUNT,
          attributes: {
            platform: 'pc-b',
            seasonId: '',
            latestMatchId: EXAMPLE_MATCH,
            weaponSummaries: { Item_Weapon_AK47_C: weaponExample },
          },
        },
        links: {
          self: `${EXAMPLE_BASE_URL}/shards/pc-b/players/${EXAMPLE_ACCOUNT}/weapon_mastery`,
        },
        meta: {},
      },
    ],
  },
);

const statMembers = {
  all: ['total', 'average', 'careerBest', 'lastMatchValue'],
  total: ['total'],
  noTotal: ['average', 'careerBest', 'lastMatchValue'],
} as const;

export const SurvivalMasteryDocument = SuccessDocument(
  'SurvivalMasteryDocument',
  {
    data: Type.Object({
      ...Identifier('survivalMasterySummary', 'The id is the account id').properties,
      attributes: Type.Object({
        xp: Type.Integer({ minimum: 0 }),
        tier: Type.Integer({ minimum: 1, maximum: 5 }),
        level: Type.Integer({ minimum: 1, maximum: 500 }),
        totalMatchesPlayed: Type.Integer({ minimum: 0 }),
        lastMatchId: Type.String({ description: 'The newest counted match; `""` if none' }),
        latestMatchId: Type.String({ description: 'The same (the documented spelling)' }),
        stats: Type.Object(
          Object.fromEntries(
            SURVIVAL_STATS.map(({ key, shows }) => [
              key,
              Type.Object(
                Object.fromEntries(statMembers[shows].map((m) => [m, Type.Number({ minimum: 0 })])),
              ),
            ]),
          ),
          { description: 'HP, metres and seconds; `position` is a placement (1 is best)' },
        ),
      }),
    }),
  },
  {
    description: "A player's survival mastery, derived from their matches (or as recorded).",
    examples: [
      {
        data: {
          type: 'survivalMasterySummary',
          id: EXAMPLE_ACCOUNT,
          attributes: {
            xp: 41830,
            tier: 1,
            level: 20,
            totalMatchesPlayed: 112,
            lastMatchId: EXAMPLE_MATCH,
            latestMatchId: EXAMPLE_MATCH,
            stats: Object.fromEntries(
              SURVIVAL_STATS.map(({ key, shows }) => [
                key,
                Object.fromEntries(statMembers[shows].map((m) => [m, key === 'position' ? 9 : 0])),
              ]),
            ),
          },
        },
        links: {
          self: `${EXAMPLE_BASE_URL}/shards/pc-b/players/${EXAMPLE_ACCOUNT}/survival_mastery`,
        },
        meta: {},
      },
    ],
  },
);
