import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LOWEST_SCORED_PLACE,
  MAX_SCORED_KILLS,
  START_RANK_POINTS,
  killPoints,
  placementPoints,
  rankPointsAfter,
} from '../../src/domain/ranked-points.ts';
import { rankedTier } from '../../src/domain/ranked-tiers.ts';
import {
  applyRankedResult,
  foldRankedResults,
  rankedGameModeStats,
  type RankedResult,
} from '../../src/domain/ranked-stats.ts';
import { isRankedMatch, isRankedSeason } from '../../src/domain/ranked-seasons.ts';
import { countsTowardSeasonStats } from '../../src/domain/stats.ts';
import { recordingWins } from '../../src/domain/recording-precedence.ts';

const result = (overrides: Partial<RankedResult> = {}): RankedResult => ({
  matchId: 'm1',
  createdAt: 1_000,
  winPlace: 5,
  won: false,
  kills: 1,
  assists: 0,
  dbnos: 1,
  damageDealt: 150,
  died: true,
  ...overrides,
});

test('placement points by hand: a win +50, 2nd +31, 8th −6, 16th and below −25', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 8, 16, 17, 64, 100].map(placementPoints),
    [50, 31, 20, 13, -6, -25, -25, -25, -25],
  );
  assert.deepEqual([0, 1, 8, 9, 30].map(killPoints), [0, 5, 40, 40, 40]);
  assert.equal(rankPointsAfter(START_RANK_POINTS, 1, 3), 1565);
});

test('a better placement never earns fewer points (every placement 1–100, kills 0–30, any points)', () => {
  for (const points of [0, 1, 10, 24, 25, 26, 999, START_RANK_POINTS, 3699, 5000]) {
    for (let kills = 0; kills <= 30; kills++) {
      for (let place = 1; place < 100; place++) {
        const better = rankPointsAfter(points, place, kills);
        const worse = rankPointsAfter(points, place + 1, kills);
        assert.ok(
          better >= worse,
          `points ${points}, kills ${kills}: place ${place} < ${place + 1}`,
        );
      }
    }
  }
});

test('points never go below 0, kills add a bounded amount, and everyone starts alike', () => {
  for (let place = 1; place <= 100; place++) {
    for (const points of [0, 5, 24]) assert.ok(rankPointsAfter(points, place, 0) >= 0);
    const spread = rankPointsAfter(2000, place, 100) - rankPointsAfter(2000, place, 0);
    assert.ok(spread >= 0 && spread <= MAX_SCORED_KILLS * 5, `kills add ${spread}`);
  }
  assert.equal(rankPointsAfter(10, LOWEST_SCORED_PLACE, 0), 0);
  const first = applyRankedResult(undefined, result({ winPlace: 1, won: true, kills: 0 }));
  assert.equal(first.rankPoints, START_RANK_POINTS + 50);
});

test('tier thresholds: Bronze 5 below 1000, 100-point sub-tiers, Master from 3400, Survivor from 3700', () => {
  const cases: Array<[number, string, string]> = [
    [0, 'Bronze', '5'],
    [999, 'Bronze', '5'],
    [1000, 'Bronze', '4'],
    [1399, 'Bronze', '1'],
    [1400, 'Silver', '4'],
    [1500, 'Silver', '3'],
    [2145, 'Gold', '1'],
    [2200, 'Platinum', '4'],
    [2647, 'Crystal', '4'],
    [2999, 'Crystal', '1'],
    [3000, 'Diamond', '4'],
    [3399, 'Diamond', '1'],
    [3400, 'Master', '1'],
    [3699, 'Master', '1'],
    [3700, 'Survivor', '1'],
    [9000, 'Survivor', '1'],
  ];
  for (const [points, tier, subTier] of cases) {
    assert.deepEqual(rankedTier(points), { tier, subTier }, `${points} points`);
  }
});

test('the state folds matches in match order whatever order they come in', () => {
  const results = [
    result({ matchId: 'a', createdAt: 1, winPlace: 16, kills: 0 }),
    result({ matchId: 'b', createdAt: 2, winPlace: 1, won: true, kills: 4, died: false }),
    result({ matchId: 'c', createdAt: 3, winPlace: 3, kills: 2, assists: 2 }),
  ];
  const inOrder = foldRankedResults(results)!;
  assert.deepEqual(foldRankedResults([results[2]!, results[0]!, results[1]!]), inOrder);
  // 1500 − 25 = 1475; + 50 + 20 = 1545; + 20 + 10 = 1575.
  assert.equal(inOrder.rankPoints, 1575);
  assert.equal(inOrder.bestRankPoints, 1575);
  assert.equal(inOrder.lastMatchId, 'c');
  const stats = rankedGameModeStats(inOrder);
  assert.equal(stats.roundsPlayed, 3);
  assert.equal(stats.wins, 1);
  assert.equal(stats.deaths, 2);
  assert.equal(stats.kills, 6);
  assert.equal(stats.avgRank, 20 / 3);
  assert.equal(stats.top10Ratio, 2 / 3);
  assert.equal(stats.winRatio, 1 / 3);
  assert.equal(stats.kda, (6 + 2) / 2);
  assert.equal(stats.avgKill, 2);
  assert.deepEqual(stats.currentTier, { tier: 'Silver', subTier: '3' });
});

test('best points keep the season high after a fall', () => {
  let state = applyRankedResult(undefined, result({ matchId: 'a', winPlace: 1, kills: 8 }));
  state = applyRankedResult(state, result({ matchId: 'b', createdAt: 2_000, winPlace: 20 }));
  assert.equal(state.bestRankPoints, 1590);
  assert.equal(state.rankPoints, 1590 - 25 + 5);
  assert.deepEqual(rankedGameModeStats(state).bestTier, { tier: 'Silver', subTier: '3' });
});

test('RankedGameModeStats: the 30 members of REFERENCE §4.4 in the 2026 order, deprecated ones 0', () => {
  const stats = rankedGameModeStats(applyRankedResult(undefined, result()));
  assert.deepEqual(Object.keys(stats), [
    'currentTier',
    'currentRankPoint',
    'bestTier',
    'bestRankPoint',
    'roundsPlayed',
    'avgRank',
    'avgSurvivalTime',
    'top10Ratio',
    'winRatio',
    'assists',
    'wins',
    'kda',
    'kdr',
    'avgKill',
    'kills',
    'deaths',
    'roundMostKills',
    'longestKill',
    'headshotKills',
    'headshotKillRatio',
    'damageDealt',
    'dBNOs',
    'reviveRatio',
    'revives',
    'heals',
    'boosts',
    'weaponsAcquired',
    'teamKills',
    'playTime',
    'killStreak',
  ]);
  for (const key of [
    'avgSurvivalTime',
    'kdr',
    'roundMostKills',
    'longestKill',
    'headshotKills',
    'headshotKillRatio',
    'reviveRatio',
    'revives',
    'heals',
    'boosts',
    'weaponsAcquired',
    'teamKills',
    'playTime',
    'killStreak',
  ] as const) {
    assert.equal(stats[key], 0, key);
  }
});

test('ranked seasons start with season 7 on PC and console; ranked matches are competitive squads', () => {
  const id = (suffix: string) => `division.bro.official.${suffix}`;
  assert.equal(isRankedSeason('pc-b', id('pc-2018-06')), false);
  assert.equal(isRankedSeason('pc-b', id('pc-2018-07')), true);
  assert.equal(isRankedSeason('pc-a', id('pc-2018-41')), true);
  assert.equal(isRankedSeason('pc-b', id('2018-07')), false, 'a region-era id');
  assert.equal(isRankedSeason('console-a', id('console-06')), false);
  assert.equal(isRankedSeason('console-b', id('console-07')), true);
  assert.equal(isRankedSeason('console-a', id('pc-2018-41')), false);
  assert.equal(isRankedSeason('tournament', id('pc-2018-41')), false);
  const match = { matchType: 'competitive', isCustomMatch: false, gameMode: 'squad-fpp' };
  assert.equal(isRankedMatch(match), true);
  assert.equal(isRankedMatch({ ...match, gameMode: 'duo' }), false);
  assert.equal(isRankedMatch({ ...match, matchType: 'official' }), false);
  assert.equal(isRankedMatch({ ...match, isCustomMatch: true }), false);
});

test('ranked matches count toward season stats like official ones; custom matches do not', () => {
  assert.equal(countsTowardSeasonStats({ isCustomMatch: false, gameMode: 'squad' }), true);
  assert.equal(countsTowardSeasonStats({ isCustomMatch: true, gameMode: 'squad' }), false);
});

test('a recording wins until something newer is derived; a tie goes to the recording', () => {
  assert.equal(recordingWins(100, null), true);
  assert.equal(recordingWins(100, 99), true);
  assert.equal(recordingWins(100, 100), true);
  assert.equal(recordingWins(100, 101), false);
});
