/**
 * Season documents: a platform's season list (REFERENCE §3.4) and `playerSeason` stats records
 * of a season or lifetime, alone (§3.5, §3.6) or in the batch form (§3.8).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { STANDARD_GAME_MODES, MATCH_LIST_RELATIONSHIP } from '../../domain/game-modes.ts';
import { Identifier, SuccessDocument, ToMany, ToOne } from './json-api.ts';
import { EXAMPLE_ACCOUNT, EXAMPLE_BASE_URL, EXAMPLE_MATCH, EXAMPLE_SEASON } from './examples.ts';

const Season = Type.Object({
  ...Identifier('season').properties,
  attributes: Type.Object({
    isCurrentSeason: Type.Boolean({ description: 'True for exactly one season of the list' }),
    isOffseason: Type.Boolean(),
  }),
});

export const SeasonListDocument = SuccessDocument(
  'SeasonListDocument',
  { data: Type.Array(Season) },
  {
    description: "The platform's seasons, oldest first, exactly one current.",
    examples: [
      {
        data: [
          {
            type: 'season',
            id: 'division.bro.official.pc-2018-44',
            attributes: { isCurrentSeason: false, isOffseason: false },
          },
          {
            type: 'season',
            id: EXAMPLE_SEASON,
            attributes: { isCurrentSeason: true, isOffseason: false },
          },
        ],
        links: { self: `${EXAMPLE_BASE_URL}/shards/pc-b/seasons` },
        meta: {},
      },
    ],
  },
);

const INTEGER_STATS = (
  'assists boosts dBNOs dailyKills dailyWins days headshotKills heals kills losses ' +
  'maxKillStreaks revives roadKills roundMostKills roundsPlayed suicides teamKills ' +
  'top10s vehicleDestroys weaponsAcquired weeklyKills weeklyWins wins'
).split(' ');
const NUMBER_STATS = (
  'damageDealt killPoints longestKill longestTimeSurvived mostSurvivalTime ' +
  'rankPoints rideDistance swimDistance timeSurvived walkDistance winPoints'
).split(' ');

/** The 35 statistics of one game mode (REFERENCE §4.1); deprecated ones are always 0 or "". */
export const GameModeStats = Type.Object(
  {
    ...Object.fromEntries(INTEGER_STATS.map((name) => [name, Type.Integer({ minimum: 0 })])),
    ...Object.fromEntries(NUMBER_STATS.map((name) => [name, Type.Number({ minimum: 0 })])),
    rankPointsTitle: Type.String({ description: 'Deprecated: always ""' }),
  },
  {
    $id: 'GameModeStats',
    description: 'Distances in metres, times in seconds; zero-filled for a mode not played.',
  },
);

const PlayerSeason = Type.Object({
  type: Type.Literal('playerSeason'),
  id: Type.String({ description: '`<accountId>:<seasonId>` (the real service sends none)' }),
  attributes: Type.Object({
    gameModeStats: Type.Partial(
      Type.Object(
        Object.fromEntries(STANDARD_GAME_MODES.map((mode) => [mode, Type.Ref(GameModeStats)])),
      ),
      { description: 'All six modes; in the batch form, the requested mode only' },
    ),
    bestRankPoint: Type.Number({ description: 'Deprecated: always 0' }),
  }),
  relationships: Type.Object({
    player: ToOne('player'),
    season: Type.Object(
      { data: Identifier('season') },
      { description: 'The season, or `lifetime`' },
    ),
    ...Object.fromEntries(
      STANDARD_GAME_MODES.map((mode): [string, TSchema] => [
        MATCH_LIST_RELATIONSHIP[mode],
        ToMany('match', `Counted ${mode} matches, newest first, at most 32 (no custom matches)`),
      ]),
    ),
  }),
});

const zeroStats = Object.fromEntries([
  ...[...INTEGER_STATS, ...NUMBER_STATS].map((name) => [name, 0]),
  ['rankPointsTitle', ''],
]);
const exampleSeason = (modes: readonly string[]) => ({
  type: 'playerSeason',
  id: `${EXAMPLE_ACCOUNT}:${EXAMPLE_SEASON}`,
  attributes: {
    gameModeStats: Object.fromEntries(
      modes.map((mode) => [
        mode,
        mode === 'squad-fpp'
          ? {
              ...zeroStats,
              kills: 7,
              roundsPlayed: 3,
              wins: 1,
              losses: 2,
              days: 2,
              timeSurvived: 3912.5,
            }
          : zeroStats,
      ]),
    ),
    bestRankPoint: 0,
  },
  relationships: {
    player: { data: { type: 'player', id: EXAMPLE_ACCOUNT } },
    season: { data: { type: 'season', id: EXAMPLE_SEASON } },
    ...Object.fromEntries(
      STANDARD_GAME_MODES.map((mode) => [
        MATCH_LIST_RELATIONSHIP[mode],
        { data: mode === 'squad-fpp' ? [{ type: 'match', id: EXAMPLE_MATCH }] : [] },
      ]),
    ),
  },
});

export const PlayerSeasonDocument = SuccessDocument(
  'PlayerSeasonDocument',
  { data: PlayerSeason },
  {
    description: "A player's stats of one season, or lifetime: all six standard game modes.",
    examples: [
      {
        data: exampleSeason(STANDARD_GAME_MODES),
        links: {
          self: `${EXAMPLE_BASE_URL}/shards/pc-b/players/${EXAMPLE_ACCOUNT}/seasons/${EXAMPLE_SEASON}`,
        },
        meta: {},
      },
    ],
  },
);

export const PlayerSeasonListDocument = SuccessDocument(
  'PlayerSeasonListDocument',
  { data: Type.Array(PlayerSeason, { minItems: 1, maxItems: 10 }) },
  {
    description: 'Stats of up to ten players in one game mode (the batch form).',
    examples: [
      {
        data: [exampleSeason(['squad-fpp'])],
        links: {
          self: `${EXAMPLE_BASE_URL}/shards/pc-b/seasons/${EXAMPLE_SEASON}/gameMode/squad-fpp/players?filter[playerIds]=${EXAMPLE_ACCOUNT}`,
        },
        meta: {},
      },
    ],
  },
);
