import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GAME_MODE_STATS_KEYS,
  countsTowardLifetime,
  countsTowardSeasonStats,
  gameModeStatsFromRow,
  isBot,
  mergeSeasonStats,
  seasonStatsIncrement,
  type SeasonStatsValues,
} from '../../src/domain/stats.ts';
import { dayNumber, isoSeconds, weekNumber } from '../../src/domain/time.ts';
import { defaultStats } from '../helpers/matches.ts';

const byteOrder = (keys: readonly string[]): string[] =>
  [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

const stats = (overrides: Partial<ReturnType<typeof defaultStats>> = {}) => ({
  ...defaultStats({ roster: 0, member: 0, index: 3 }, 5, false),
  ...overrides,
});

test('day numbers count UTC days from 1970-01-01', () => {
  assert.equal(dayNumber(0), 0);
  assert.equal(dayNumber(Date.parse('1970-01-01T23:59:59.999Z')), 0);
  assert.equal(dayNumber(Date.parse('1970-01-02T00:00:00Z')), 1);
  assert.equal(dayNumber(Date.parse('1969-12-31T23:00:00Z')), -1);
});

test('weeks start on Mondays (UTC)', () => {
  const sunday = Date.parse('2026-11-22T23:59:59Z');
  const monday = Date.parse('2026-11-23T00:00:00Z');
  assert.equal(weekNumber(monday), weekNumber(sunday) + 1);
  assert.equal(weekNumber(Date.parse('2026-11-17T10:00:00Z')), weekNumber(sunday));
  assert.equal(weekNumber(0), 0, '1970-01-01 (a Thursday) is in week 0');
  assert.equal(weekNumber(Date.parse('1970-01-05T00:00:00Z')), 1, 'the first Monday opens week 1');
});

test('API timestamps have no fraction and end in Z', () => {
  assert.equal(isoSeconds(Date.parse('2026-04-15T21:45:33.987Z')), '2026-04-15T21:45:33Z');
});

test('one match becomes sums, maxima and win/loss/top-10 counts', () => {
  const createdAt = Date.parse('2026-11-20T12:00:00Z');
  const won = seasonStatsIncrement(
    stats({ kills: 4, winPlace: 1, deathType: 'alive' }),
    true,
    createdAt,
  );
  assert.equal(won.wins, 1);
  assert.equal(won.losses, 0);
  assert.equal(won.top10s, 1);
  assert.equal(won.rounds_played, 1);
  assert.equal(won.round_most_kills, 4);
  assert.equal(won.daily_kills, 4);
  assert.equal(won.weekly_wins, 1);
  assert.equal(won.last_day, dayNumber(createdAt));
  assert.equal(won.last_week, weekNumber(createdAt));

  const lost = seasonStatsIncrement(
    stats({ winPlace: 11, deathType: 'suicide', DBNOs: 2 }),
    false,
    createdAt,
  );
  assert.equal(lost.wins, 0);
  assert.equal(lost.losses, 1);
  assert.equal(lost.top10s, 0, 'winPlace 11 is not a top 10');
  assert.equal(lost.suicides, 1);
  assert.equal(lost.dbnos, 2);
  assert.equal(lost.longest_time_survived, lost.time_survived);
  assert.equal(seasonStatsIncrement(stats({ winPlace: 10 }), false, createdAt).top10s, 1);
});

test('merging adds sums, keeps maxima and counts a day once', () => {
  const day1 = Date.parse('2026-11-16T10:00:00Z'); // a Monday
  const a = seasonStatsIncrement(stats({ kills: 3, longestKill: 50, killStreaks: 2 }), true, day1);
  const b = seasonStatsIncrement(
    stats({ kills: 1, longestKill: 120, killStreaks: 1 }),
    false,
    day1 + 3_600_000,
  );
  const merged = mergeSeasonStats(mergeSeasonStats(undefined, a, true), b, false);
  assert.equal(merged.kills, 4);
  assert.equal(merged.rounds_played, 2);
  assert.equal(merged.wins + merged.losses, merged.rounds_played);
  assert.equal(merged.longest_kill, 120);
  assert.equal(merged.max_kill_streaks, 2);
  assert.equal(merged.round_most_kills, 3);
  assert.equal(merged.days, 1);
  assert.equal(merged.daily_kills, 4);
  assert.equal(merged.weekly_kills, 4);
});

test('daily and weekly stats follow the newest match, whatever the ingest order', () => {
  const monday = Date.parse('2026-11-16T10:00:00Z');
  const tuesday = monday + 86_400_000;
  const nextMonday = monday + 7 * 86_400_000;
  const m = (kills: number, at: number, won = false) =>
    seasonStatsIncrement(stats({ kills }), won, at);

  let agg = mergeSeasonStats(undefined, m(2, tuesday, true), true);
  agg = mergeSeasonStats(agg, m(5, monday), true); // older day, same week: weekly only
  assert.equal(agg.daily_kills, 2);
  assert.equal(agg.daily_wins, 1);
  assert.equal(agg.weekly_kills, 7);
  assert.equal(agg.days, 2);
  agg = mergeSeasonStats(agg, m(1, nextMonday), true); // newer week: both restart
  assert.equal(agg.daily_kills, 1);
  assert.equal(agg.daily_wins, 0);
  assert.equal(agg.weekly_kills, 1);
  assert.equal(agg.last_week, weekNumber(nextMonday));
  assert.equal(agg.kills, 8);
});

test('GameModeStats has the 35 keys in byte-wise order, zero-filled for unplayed modes', () => {
  const empty = gameModeStatsFromRow(undefined);
  assert.deepEqual(Object.keys(empty), byteOrder(Object.keys(empty)));
  assert.deepEqual(Object.keys(empty), [...GAME_MODE_STATS_KEYS]);
  assert.equal(Object.keys(empty).length, 35);
  assert.ok(Object.keys(empty).indexOf('dBNOs') < Object.keys(empty).indexOf('dailyKills'));
  assert.ok(
    Object.keys(empty).indexOf('roundMostKills') < Object.keys(empty).indexOf('roundsPlayed'),
  );
  for (const [key, value] of Object.entries(empty)) {
    assert.equal(value, key === 'rankPointsTitle' ? '' : 0, key);
  }
});

test('GameModeStats maps aggregate columns, with integers as integers', () => {
  const createdAt = Date.parse('2026-11-20T12:00:00Z');
  const row: SeasonStatsValues = mergeSeasonStats(
    undefined,
    seasonStatsIncrement(stats({ kills: 6, DBNOs: 4, timeSurvived: 1234.5 }), true, createdAt),
    true,
  );
  const out = gameModeStatsFromRow({ ...row, kills: 6.0000001 } as SeasonStatsValues);
  assert.equal(out.kills, 6);
  assert.equal(out.dBNOs, 4);
  assert.equal(out.longestTimeSurvived, 1234.5);
  assert.equal(out.mostSurvivalTime, 1234.5);
  assert.equal(out.roundsPlayed, 1);
  assert.equal(out.wins, 1);
  assert.equal(out.days, 1);
  assert.equal(out.killPoints, 0);
  assert.equal(out.winPoints, 0);
  assert.equal(out.rankPoints, 0);
  assert.equal(out.rankPointsTitle, '');
});

test('custom matches and non-standard modes do not count; bots are ai.<n>', () => {
  assert.equal(countsTowardSeasonStats({ isCustomMatch: false, gameMode: 'squad-fpp' }), true);
  assert.equal(countsTowardSeasonStats({ isCustomMatch: true, gameMode: 'squad-fpp' }), false);
  assert.equal(countsTowardSeasonStats({ isCustomMatch: false, gameMode: 'tdm' }), false);
  assert.equal(isBot('ai.349'), true);
  assert.equal(isBot('account.91186dcca3cb4ad198fac1e4ab1d5b80'), false);
});

test('lifetime counts seasons from the platform-shard era on', () => {
  const id = (suffix: string) => `division.bro.official.${suffix}`;
  for (const suffix of ['pc-2018-01', 'pc-2018-41', 'playstation-01', 'xbox-02', 'console-07']) {
    assert.equal(countsTowardLifetime(id(suffix)), true, suffix);
  }
  for (const suffix of ['2018-09', '2018-05', '2017-beta', '2017-pre3', 'xb-pre1']) {
    assert.equal(countsTowardLifetime(id(suffix)), false, suffix);
  }
  assert.equal(countsTowardLifetime('lifetime'), false);
});
