import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { STANDARD_GAME_MODES } from '../../src/domain/game-modes.ts';
import { seasonAt, seasonCatalogue } from '../../src/domain/seasons.ts';
import { REGION_PLATFORM } from '../../src/domain/shards.ts';
import { MatchInput } from '../../src/ingest/match-input.ts';
import { generateDemo } from '../../src/demo/generate-demo.ts';
import { DEMO_MAPS, demoMap } from '../../src/demo/maps.ts';
import { assertConsistentStats, participantsOf } from './match-invariants.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const checkInput = TypeCompiler.Compile(MatchInput);
const take = <T>(iterable: Iterable<T>, n: number): T[] => {
  const out: T[] = [];
  for (const item of iterable) {
    if (out.length === n) break;
    out.push(item);
  }
  return out;
};

/** Distinct pc-b players per standard mode in non-custom matches from `from` on. */
function seasonCoverage(matches: readonly MatchInput[], from: number): Record<string, number> {
  const seen = new Map<string, Set<string>>();
  for (const m of matches) {
    if (m.platformShard !== 'pc-b' || m.isCustomMatch || Date.parse(m.createdAt) < from) continue;
    if (!(STANDARD_GAME_MODES as readonly string[]).includes(m.gameMode)) continue;
    const players = seen.get(m.gameMode) ?? new Set<string>();
    for (const p of participantsOf(m))
      if (p.playerId.startsWith('account.')) players.add(p.playerId);
    seen.set(m.gameMode, players);
  }
  return Object.fromEntries(STANDARD_GAME_MODES.map((mode) => [mode, seen.get(mode)?.size ?? 0]));
}

describe('determinism', () => {
  test('the same seed and instant give identical matches, telemetry included', () => {
    const a = take(generateDemo({ seed: 7, now: NOW, scale: 0.05 }).matches(), 4);
    const b = take(generateDemo({ seed: 7, now: NOW, scale: 0.05 }).matches(), 4);
    assert.deepEqual(a, b);
  });

  test('another seed gives other matches', () => {
    const a = take(generateDemo({ seed: 7, now: NOW, scale: 0.05 }).matches(), 2);
    const b = take(generateDemo({ seed: 8, now: NOW, scale: 0.05 }).matches(), 2);
    assert.notEqual(a[0]!.id, b[0]!.id);
    assert.notDeepEqual(a[0]!.rosters, b[0]!.rosters);
  });

  test('a plan replays the same matches, and leaving telemetry out changes nothing else', () => {
    const plan = generateDemo({ seed: 3, now: NOW, scale: 0.03 });
    const first = take(plan.matches(), 6);
    assert.deepEqual(take(plan.matches(), 6), first);
    const bare = take(
      generateDemo({ seed: 3, now: NOW, scale: 0.03, telemetry: false }).matches(),
      6,
    );
    assert.deepEqual(
      bare,
      first.map(({ telemetry: _telemetry, ...rest }) => rest),
    );
  });

  test('refuses a scale below 0.01', () => {
    assert.throws(() => generateDemo({ seed: 1, now: NOW, scale: 0.001 }), RangeError);
  });
});

describe('the default data set (scale 1, stats only)', () => {
  const plan = generateDemo({ seed: 1, now: NOW, scale: 1, telemetry: false });
  const matches = [...plan.matches()];
  const playerOf = new Map(plan.players.map((p) => [p.accountId, p]));
  const br = matches.filter((m) => m.gameMode !== 'tdm');

  test('at least 3,000 players over the four game platforms, pc-b the largest', () => {
    const perPlatform = new Map<string, number>();
    for (const p of plan.players)
      perPlatform.set(p.platform, (perPlatform.get(p.platform) ?? 0) + 1);
    const game = ['pc-a', 'pc-b', 'console-a', 'console-b'].map((p) => perPlatform.get(p) ?? 0);
    assert.ok(game.reduce((a, b) => a + b) >= 3_000, `players ${game}`);
    assert.ok((perPlatform.get('pc-b') ?? 0) >= 1_600);
    assert.ok(game.every((n) => n >= 300 && n <= (perPlatform.get('pc-b') ?? 0)));
    const played = new Set(matches.flatMap((m) => participantsOf(m).map((p) => p.playerId)));
    assert.ok(
      plan.players.every((p) => played.has(p.accountId)),
      'every player plays',
    );
  });

  test('names are unique per platform ignoring case and at most 16 characters', () => {
    const seen = new Set<string>();
    for (const p of plan.players) {
      assert.ok(p.name.length >= 3 && p.name.length <= 16, p.name);
      const key = `${p.platform}/${p.name.toLowerCase()}`;
      assert.ok(!seen.has(key), `duplicate name ${p.name}`);
      seen.add(key);
    }
  });

  test('at least 1,500 matches in the 14 days before now, in chronological order, all consistent', () => {
    assert.equal(matches.length, plan.matchCount);
    assert.ok(matches.length >= 1_500, `${matches.length} matches`);
    let previous = 0;
    for (const m of matches) {
      const at = Date.parse(m.createdAt);
      assert.ok(
        at >= NOW - 14 * DAY + 3_600_000 && at + m.duration * 1000 <= NOW - 30 * 60_000,
        m.createdAt,
      );
      assert.ok(at >= previous, 'chronological');
      previous = at;
      assert.ok(checkInput.Check(m));
      assertConsistentStats(m);
    }
  });

  test('players come from the match platform and mostly its region', () => {
    let home = 0;
    let humans = 0;
    for (const m of matches) {
      for (const p of participantsOf(m)) {
        if (p.playerId.startsWith('ai.')) continue;
        const player = playerOf.get(p.playerId);
        assert.ok(player, 'a known player');
        assert.equal(player.platform, m.platformShard);
        assert.equal(p.name, player.name);
        humans++;
        if (player.region === m.regionShard) home++;
      }
      assert.equal(REGION_PLATFORM[m.regionShard], m.platformShard);
    }
    assert.ok(home / humans > 0.85, `home share ${home / humans}`);
    const pcb = matches.filter((m) => m.platformShard === 'pc-b').length;
    assert.ok(pcb > matches.length * 0.45 && pcb < matches.length * 0.65, `pc-b matches ${pcb}`);
  });

  test('modes, maps and lobbies look like the real service', () => {
    const official = br.filter((m) => m.matchType === 'official' && !m.tournamentId);
    const fpp = official.filter((m) => m.gameMode.endsWith('-fpp')).length;
    assert.ok(fpp > official.length - fpp, 'FPP is more common');
    for (const mode of STANDARD_GAME_MODES)
      assert.ok(
        official.some((m) => m.gameMode === mode),
        mode,
      );
    for (const m of official) {
      const map = demoMap(m.mapName);
      const n = participantsOf(m).length;
      assert.ok(n >= map.lobby[0] && n <= map.lobby[1], `${m.mapName} lobby of ${n}`);
      if (map.extentCm >= 816_000) assert.ok(n >= 90 && n <= 100);
      const [shortest, longest] = map.durationSeconds;
      assert.ok(m.duration >= shortest && m.duration <= longest, `duration ${m.duration}`);
      const size = m.gameMode.startsWith('squad') ? 4 : m.gameMode.startsWith('duo') ? 2 : 1;
      assert.ok(m.rosters.every((r) => r.participants.length <= size));
      assert.ok(map.teamSizes.includes(size), `${m.mapName} is played in ${m.gameMode}`);
    }
    const sizes = new Set(br.flatMap((m) => m.rosters.map((r) => r.participants.length)));
    for (const size of [1, 2, 3, 4]) assert.ok(sizes.has(size), `rosters of ${size}`);
    assert.ok(
      official.filter((m) => participantsOf(m).some((p) => p.playerId.startsWith('ai.'))).length >
        official.length / 3,
      'bots in many matches',
    );
    const small = (platform: string) => official.filter((m) => m.regionShard === platform);
    const bots = (ms: MatchInput[]) =>
      ms.flatMap(participantsOf).filter((p) => p.playerId.startsWith('ai.')).length /
      Math.max(1, ms.flatMap(participantsOf).length);
    assert.ok(bots(small('pc-oc')) > bots(small('pc-eu')), 'more bots where few play');
  });

  test("every map of today's rotation is played, Deston and Paramo included", () => {
    const played = new Set(matches.map((m) => m.mapName));
    for (const map of DEMO_MAPS) assert.ok(played.has(map.name), map.name);
    assert.ok(played.has('Kiki_Main') && played.has('Chimera_Main') && played.has('Heaven_Main'));
  });

  test('ranked squads: competitive, 64 players and no bots, on PC and console, on ranked maps', () => {
    const ranked = matches.filter((m) => m.matchType === 'competitive');
    assert.ok(ranked.length >= 100, `${ranked.length} ranked matches`);
    for (const m of ranked) {
      assert.ok(['squad', 'squad-fpp'].includes(m.gameMode), m.gameMode);
      assert.equal(m.isCustomMatch, false);
      assert.ok(demoMap(m.mapName).ranked, `${m.mapName} is in the ranked pool`);
      const ps = participantsOf(m);
      assert.equal(ps.length, 64);
      assert.ok(
        ps.every((p) => p.playerId.startsWith('account.')),
        'no bots',
      );
      assert.ok(m.rosters.every((r) => r.participants.length <= 4));
    }
    const platforms = new Set<string>(ranked.map((m) => m.platformShard));
    for (const platform of ['pc-a', 'pc-b', 'console-a', 'console-b'])
      assert.ok(platforms.has(platform), platform);
    assert.ok(new Set(ranked.map((m) => m.gameMode)).size === 2, 'squad and squad-fpp');
  });

  test('activity is heavy-tailed: a few matches for many, hundreds for a few', () => {
    const games = new Map<string, number>();
    for (const m of matches)
      for (const p of participantsOf(m))
        if (p.playerId.startsWith('account.'))
          games.set(p.playerId, (games.get(p.playerId) ?? 0) + 1);
    const counts = [...games.values()].sort((a, b) => a - b);
    const median = counts[Math.floor(counts.length / 2)]!;
    assert.ok(counts.filter((n) => n <= 5).length >= 50, 'many play a handful');
    assert.ok(median >= 10 && median <= 40, `median ${median}`);
    assert.ok(counts.at(-1)! >= 150, `the most active played ${counts.at(-1)}`);
    assert.ok(counts.filter((n) => n >= 100).length >= 20, 'a real top');
  });

  test('custom, arcade and tournament matches are there', () => {
    const custom = matches.filter((m) => m.isCustomMatch);
    assert.ok(custom.length >= 30);
    assert.ok(
      custom.every(
        (m) =>
          m.matchType === 'custom' && /^(normal|war|zombie|conquest|esports)-/.test(m.gameMode),
      ),
    );
    assert.ok(custom.some((m) => m.gameMode === 'esports-squad-fpp'));
    const tdm = matches.filter((m) => m.gameMode === 'tdm');
    assert.ok(
      tdm.length >= 5 &&
        tdm.every((m) => m.matchType === 'arcade' && participantsOf(m).length === 16),
    );
    const tournament = matches.filter((m) => m.tournamentId);
    assert.ok(plan.tournaments.length >= 3);
    for (const t of plan.tournaments) {
      const its = tournament.filter((m) => m.tournamentId === t.id);
      assert.match(t.id, /^[a-z]+-[a-z]+\d+$/);
      assert.ok(its.length >= 4 && its.length <= 8 && its.length === t.matchCount);
      for (const m of its) {
        assert.equal(m.platformShard, 'tournament');
        assert.equal(m.regionShard, 'pc-tournament');
        assert.ok(
          ['official', 'event'].includes(m.matchType) &&
            ['squad', 'squad-fpp'].includes(m.gameMode),
        );
        assert.ok(
          participantsOf(m).every((p) => playerOf.get(p.playerId)?.platform === 'tournament'),
          'pros only',
        );
      }
    }
  });

  test('damage follows kills', () => {
    const ps = br.slice(0, 300).flatMap(participantsOf);
    const xs = ps.map((p) => p.stats.kills);
    const ys = ps.map((p) => p.stats.damageDealt);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const [mx, my] = [mean(xs), mean(ys)];
    const cov = mean(xs.map((x, i) => (x - mx) * (ys[i]! - my)));
    const r =
      cov / Math.sqrt(mean(xs.map((x) => (x - mx) ** 2)) * mean(ys.map((y) => (y - my) ** 2)));
    assert.ok(r > 0.7, `correlation ${r}`);
    const perKill = ys.reduce((a, b) => a + b, 0) / xs.reduce((a, b) => a + b, 0);
    assert.ok(perKill > 100 && perKill < 250, `damage per kill ${perKill}`);
  });

  test('console ranked matches fall in the current and the previous season (consoles change a week after PC)', () => {
    assert.deepEqual([...rankedSeasons(matches, 'console-a', NOW)].sort(), [
      'division.bro.official.console-44',
      'division.bro.official.console-45',
    ]);
  });

  test('at least 1,000 pc-b players played each standard mode in the current season', () => {
    const coverage = seasonCoverage(matches, plan.pcbSeason.startsAt!);
    for (const mode of STANDARD_GAME_MODES)
      assert.ok(coverage[mode]! >= 1_000, `${mode}: ${coverage[mode]}`);
  });
});

/** Seasons of a platform that ranked matches were played in. */
function rankedSeasons(
  matches: readonly MatchInput[],
  platform: 'pc-b' | 'console-a',
  now: number,
): Set<string> {
  const catalogue = seasonCatalogue(platform, now);
  return new Set(
    matches
      .filter((m) => m.matchType === 'competitive' && m.platformShard === platform)
      .map((m) => seasonAt(catalogue, Date.parse(m.createdAt))!.id),
  );
}

test('a season that began 2½ days ago still gets 1,000 pc-b players per standard mode, and ranked matches in it and the one before', () => {
  const now = Date.parse('2026-11-03T12:00:00Z');
  const plan = generateDemo({ seed: 1, now, scale: 1, telemetry: false });
  assert.equal(plan.pcbSeason.startsAt, Date.parse('2026-11-01T00:00:00Z'));
  const matches = [...plan.matches()];
  const coverage = seasonCoverage(matches, plan.pcbSeason.startsAt!);
  for (const mode of STANDARD_GAME_MODES)
    assert.ok(coverage[mode]! >= 1_000, `${mode}: ${coverage[mode]}`);
  assert.deepEqual([...rankedSeasons(matches, 'pc-b', now)].sort(), [
    'division.bro.official.pc-2018-44',
    'division.bro.official.pc-2018-45',
  ]);
});
