import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PRIOR_GAMES,
  leaderboardEntries,
  populationMeans,
  rankPlayers,
  rankPointsOf,
  rankScore,
  tierOf,
  type PlayerAggregate,
} from '../../src/domain/ranking.ts';

/** A player whose every game ended the same way: `per` holds the per-game values. */
function steady(
  accountId: string,
  games: number,
  per: { win?: number; top10?: number; place: number; kills: number; damage: number },
): PlayerAggregate {
  return {
    accountId,
    games,
    wins: Math.round((per.win ?? 0) * games),
    top10s: Math.round((per.top10 ?? 0) * games),
    kills: per.kills * games,
    damageDealt: per.damage * games,
    winPlaceSum: per.place * games,
  };
}

const AVERAGE = { win: 0.05, top10: 0.4, place: 12, kills: 1, damage: 150 };

/** A population of average players, so the means are known. */
const crowd = (n: number): PlayerAggregate[] =>
  Array.from({ length: n }, (_, i) =>
    steady(`account.crowd${String(i).padStart(4, '0')}`, 20, AVERAGE),
  );

test('the pooled means weigh every game alike', () => {
  const means = populationMeans([
    { accountId: 'a', games: 1, wins: 1, top10s: 1, kills: 4, damageDealt: 400, winPlaceSum: 1 },
    { accountId: 'b', games: 3, wins: 0, top10s: 1, kills: 0, damageDealt: 0, winPlaceSum: 39 },
  ]);
  assert.deepEqual(means, { winRate: 0.25, top10Rate: 0.5, placement: 10, kills: 1, damage: 100 });
  assert.deepEqual(populationMeans([]), {
    winRate: 0,
    top10Rate: 0,
    placement: 0,
    kills: 0,
    damage: 0,
  });
});

test('an average player scores 0, and twice as good on every rate scores about ln 2 after the shrink', () => {
  const players = crowd(100);
  const means = populationMeans(players);
  assert.ok(Math.abs(rankScore(players[0]!, means)) < 1e-12);
  assert.equal(rankPointsOf(0), 2000);

  const twice = steady('account.twice', 10_000, {
    win: 0.1,
    top10: 0.8,
    place: 6,
    kills: 2,
    damage: 300,
  });
  const score = rankScore(twice, means);
  assert.ok(Math.abs(score - Math.LN2) < 0.01, `score ${score}`);
  // After PRIOR_GAMES games, half the weight is the player's own: rates shrink to 1.5× the mean
  // and placement (weight 0.2) to 9, halfway between 6 and the mean 12.
  const early = steady('account.early', PRIOR_GAMES, {
    win: 0.1,
    top10: 0.8,
    place: 6,
    kills: 2,
    damage: 300,
  });
  const expected = 0.8 * Math.log(1.5) + 0.2 * Math.log(12 / 9);
  assert.ok(Math.abs(rankScore(early, means) - expected) < 1e-9);
});

test('one lucky game does not top a board of steady good players', () => {
  const lucky = steady('account.lucky', 1, { win: 1, top10: 1, place: 1, kills: 12, damage: 1200 });
  const steadyGood = steady('account.steady', 60, {
    win: 0.2,
    top10: 0.8,
    place: 5,
    kills: 3,
    damage: 400,
  });
  const ranked = rankPlayers([lucky, steadyGood, ...crowd(200)]);
  assert.equal(ranked[0]!.player.accountId, 'account.steady');
  assert.equal(ranked[1]!.player.accountId, 'account.lucky');
  assert.ok(ranked[0]!.rankPoints > ranked[1]!.rankPoints);
});

test('worse placement lowers the score; a rate whose mean is 0 counts for nothing', () => {
  const players = crowd(10);
  const means = populationMeans(players);
  const better = steady('a', 20, { ...AVERAGE, place: 8 });
  const worse = steady('b', 20, { ...AVERAGE, place: 16 });
  assert.ok(rankScore(better, means) > 0);
  assert.ok(rankScore(worse, means) < 0);
  const noWins = { ...means, winRate: 0 };
  assert.equal(rankScore({ ...players[0]!, wins: 0 }, noWins), rankScore(players[0]!, means));
});

test('ties break on wins, then games, then account id; ranks are 1..n', () => {
  // Equal scores need equal rates and games: these three differ only where the score cannot see.
  const base = { games: 10, wins: 1, top10s: 4, kills: 10, damageDealt: 1500, winPlaceSum: 120 };
  const ranked = rankPlayers([
    { accountId: 'account.c', ...base },
    { accountId: 'account.a', ...base },
    { accountId: 'account.b', ...base },
  ]);
  assert.deepEqual(
    ranked.map((r) => [r.rank, r.player.accountId]),
    [
      [1, 'account.a'],
      [2, 'account.b'],
      [3, 'account.c'],
    ],
  );

  // With no score at all (nobody won, killed or placed), wins and games decide.
  const flat = (accountId: string, games: number, wins: number): PlayerAggregate => ({
    accountId,
    games,
    wins,
    top10s: 0,
    kills: 0,
    damageDealt: 0,
    winPlaceSum: 0,
  });
  const order = rankPlayers([
    flat('account.z', 5, 0),
    flat('account.y', 3, 0),
    flat('account.x', 5, 0),
  ]);
  assert.deepEqual(
    order.map((r) => r.player.accountId),
    ['account.x', 'account.z', 'account.y'],
  );
});

test('the order does not depend on the order players come in', () => {
  const players = [
    ...crowd(50),
    steady('account.s1', 30, { win: 0.1, top10: 0.6, place: 8, kills: 2, damage: 250 }),
    steady('account.s2', 5, { win: 0.2, top10: 0.6, place: 7, kills: 1, damage: 200 }),
    steady('account.s3', 80, { win: 0.02, top10: 0.3, place: 14, kills: 0.5, damage: 90 }),
  ];
  const forward = rankPlayers(players).map((r) => [r.player.accountId, r.rankPoints]);
  const backward = rankPlayers([...players].reverse()).map((r) => [
    r.player.accountId,
    r.rankPoints,
  ]);
  assert.deepEqual(backward, forward);
  const points = rankPlayers(players).map((r) => r.rankPoints);
  assert.deepEqual(
    points,
    [...points].sort((a, b) => b - a),
    'rank points never rise down the board',
  );
});

test('tiers follow the 100-point sub-tier bands', () => {
  const cases: Array<[number, string, string]> = [
    [0, 'Bronze', '5'],
    [999, 'Bronze', '5'],
    [1000, 'Bronze', '4'],
    [1399, 'Bronze', '1'],
    [1400, 'Silver', '4'],
    [1800, 'Gold', '4'],
    [2067, 'Gold', '2'],
    [2199, 'Gold', '1'],
    [2200, 'Platinum', '4'],
    [2597, 'Platinum', '1'],
    [2600, 'Crystal', '4'],
    [2999, 'Crystal', '1'],
    [3000, 'Diamond', '4'],
    [3381, 'Diamond', '1'],
    [3400, 'Master', '1'],
    [3699, 'Master', '1'],
    [3700, 'Survivor', '1'],
    [9000, 'Survivor', '1'],
  ];
  for (const [points, tier, subTier] of cases) {
    assert.deepEqual(tierOf(points), { tier, subTier }, `${points} points`);
  }
  assert.equal(rankPointsOf(-5), 0, 'never below 0');
  assert.equal(rankPointsOf(0.12345), 2123);
});

test('a build keeps the top of the platform and completes every region to its own top', () => {
  const players = Array.from({ length: 30 }, (_, i) => ({
    ...steady(`account.p${String(i).padStart(2, '0')}`, 10, { ...AVERAGE, kills: 30 - i }),
    region: i < 20 ? 'pc-eu' : i < 28 ? 'pc-na' : '',
  }));
  const ranked = rankPlayers(players);
  const kept = leaderboardEntries(ranked, 10, 5);
  // The top 10 are all pc-eu; pc-na's best five (ranks 21–25) come along; no one without a region.
  assert.deepEqual(
    kept.map((entry) => entry.rank),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 22, 23, 24, 25],
  );
});
