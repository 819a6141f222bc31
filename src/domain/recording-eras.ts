/**
 * Which members recorded match documents carry, era by era. The real service added members to
 * match documents over the years and never removed one that ingest reads, so a recording that
 * lacks a member its era's documents carry has been damaged or edited; ingest refuses it rather
 * than counting the gap as 0 (a 2026 participant without `kills` is not a player with 0 kills).
 *
 * The eras, by the match's `createdAt` (UTC), as the recordings we hold show them (the reference
 * fixtures, 2018-04 to 2026-04). An era starts on the day of the earliest recording we hold that
 * carries its new members: the real change happened somewhat earlier, so documents from just
 * before a boundary are accepted without the member (filled in by ingest's documented rules)
 * rather than refused wrongly.
 *
 * | era          | from       | match `data.attributes` adds      | participant `stats` adds |
 * | ------------ | ---------- | --------------------------------- | ------------------------ |
 * | launch       | —          | createdAt, duration, gameMode, shardId, titleId | the 21 below |
 * | custom-games | 2018-07-05 | isCustomMatch, mapName            | swimDistance             |
 * | seasons      | 2018-12-27 | seasonState                       | —                        |
 * | match-types  | 2019-09-08 | matchType                         | —                        |
 *
 * Every era: participants carry `stats.name`, `stats.playerId`, `stats.deathType` and the
 * counters DBNOs, assists, boosts, damageDealt, headshotKills, heals, killPlace, killStreaks,
 * kills, longestKill, revives, rideDistance, roadKills, teamKills, timeSurvived,
 * vehicleDestroys, walkDistance, weaponsAcquired, winPlace; rosters carry `attributes.won`,
 * `attributes.stats.rank`, `attributes.stats.teamId` and `relationships.participants`; the match
 * carries `relationships.rosters` and `relationships.assets`, and its one asset
 * `attributes.createdAt` and `attributes.URL`.
 *
 * Not checked, because nothing is read from them: the always-null `stats`/`tags`, the
 * always-empty `actor`, roster `shardId`, `relationships.team`, and the 2018–2019 participant
 * points (`killPoints`, `winPoints`, `rankPoints` …), which the real service dropped in 2019.
 */

/** Members every participant's `attributes.stats` carries, in every era. */
const PARTICIPANT_STATS_ALWAYS = [
  'name',
  'playerId',
  'deathType',
  'DBNOs',
  'assists',
  'boosts',
  'damageDealt',
  'headshotKills',
  'heals',
  'killPlace',
  'killStreaks',
  'kills',
  'longestKill',
  'revives',
  'rideDistance',
  'roadKills',
  'teamKills',
  'timeSurvived',
  'vehicleDestroys',
  'walkDistance',
  'weaponsAcquired',
  'winPlace',
] as const;

const MATCH_ATTRIBUTES_ALWAYS = [
  'createdAt',
  'duration',
  'gameMode',
  'shardId',
  'titleId',
] as const;

/** Paths inside a roster resource, every era. */
export const ROSTER_MEMBERS: readonly (readonly string[])[] = [
  ['attributes', 'won'],
  ['attributes', 'stats', 'rank'],
  ['attributes', 'stats', 'teamId'],
  ['relationships', 'participants', 'data'],
];

/** Paths inside the match's `data` resource, every era. */
export const MATCH_RELATIONSHIPS: readonly (readonly string[])[] = [
  ['relationships', 'rosters', 'data'],
  ['relationships', 'assets', 'data'],
];

/** Paths inside the telemetry asset resource, every era. */
export const ASSET_MEMBERS: readonly (readonly string[])[] = [
  ['attributes', 'createdAt'],
  ['attributes', 'URL'],
];

/** The members one era of recordings carries (see the file comment for the table). */
export interface RecordingEra {
  name: string;
  /** First day of the era, `YYYY-MM-DD` (UTC); the first era has none. */
  since: string | null;
  /** Members of the match's `data.attributes`. */
  matchAttributes: readonly string[];
  /** Members of every participant's `attributes.stats`. */
  participantStats: readonly string[];
}

/** Oldest first; each era carries everything the previous one did. */
export const RECORDING_ERAS: readonly RecordingEra[] = buildEras([
  {
    name: 'launch',
    since: null,
    matchAttributes: MATCH_ATTRIBUTES_ALWAYS,
    participantStats: PARTICIPANT_STATS_ALWAYS,
  },
  {
    name: 'custom-games',
    since: '2018-07-05',
    matchAttributes: ['isCustomMatch', 'mapName'],
    participantStats: ['swimDistance'],
  },
  { name: 'seasons', since: '2018-12-27', matchAttributes: ['seasonState'], participantStats: [] },
  {
    name: 'match-types',
    since: '2019-09-08',
    matchAttributes: ['matchType'],
    participantStats: [],
  },
]);

/** The era of a match created at `createdAt` (epoch ms). */
export function recordingEraAt(createdAt: number): RecordingEra {
  let era = RECORDING_ERAS[0]!;
  for (const candidate of RECORDING_ERAS) {
    if (candidate.since !== null && Date.parse(`${candidate.since}T00:00:00Z`) <= createdAt) {
      era = candidate;
    }
  }
  return era;
}

/** Accumulates each era's additions onto everything earlier eras carry. */
function buildEras(additions: readonly RecordingEra[]): RecordingEra[] {
  const eras: RecordingEra[] = [];
  for (const addition of additions) {
    const previous = eras.at(-1);
    eras.push(
      Object.freeze({
        name: addition.name,
        since: addition.since,
        matchAttributes: [...(previous?.matchAttributes ?? []), ...addition.matchAttributes],
        participantStats: [...(previous?.participantStats ?? []), ...addition.participantStats],
      }),
    );
  }
  return eras;
}
