import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { MatchInput } from '../../src/ingest/match-input.ts';
import { generateDemo } from '../../src/demo/generate-demo.ts';
import type { TelemetryProfileName } from '../../src/demo/telemetry-profile.ts';
import { assertConsistentStats, participantsOf } from './match-invariants.ts';
import { assertConsistentTelemetry } from './telemetry-invariants.ts';
import { assertEventKinds, expectedKinds } from './telemetry-kinds.ts';
import { assertTelemetryAddsUp } from './telemetry-sums.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const checkInput = TypeCompiler.Compile(MatchInput);

/** The first `n` matches of a plan that satisfy `keep`. */
function first(
  n: number,
  options: { seed: number; scale: number; telemetry: TelemetryProfileName },
  keep: (m: MatchInput) => boolean = () => true,
): MatchInput[] {
  const out: MatchInput[] = [];
  for (const m of generateDemo({ now: NOW, ...options }).matches()) {
    if (keep(m)) out.push(m);
    if (out.length === n) break;
  }
  return out;
}

describe('default telemetry (scale 0.06)', () => {
  const matches = [...generateDemo({ seed: 11, now: NOW, scale: 0.06 }).matches()];

  test('every match passes the ingest schema and its stats are consistent', () => {
    for (const m of matches) {
      assert.ok(checkInput.Check(m), `${m.id}: ${JSON.stringify(checkInput.Errors(m).First())}`);
      assertConsistentStats(m);
    }
  });

  test('telemetry agrees with the participants; attacks, positions, phases and care packages hold together', () => {
    for (const m of matches) assertConsistentTelemetry(m, 'default');
  });

  test('heals, boosts, revives, distances, weapons, headshots, longest kill and damage add up to the stats', () => {
    for (const m of matches) assertTelemetryAddsUp(m);
  });

  test('every event kind of its mode, and none it cannot have', () => {
    for (const m of matches) assertEventKinds(m);
    const modes = new Set(
      matches.map((m) => `${m.matchType}/${m.gameMode === 'tdm' ? 'tdm' : 'br'}`),
    );
    for (const mode of ['official/br', 'competitive/br', 'custom/br', 'arcade/tdm'])
      assert.ok(modes.has(mode), `the sample has ${mode}`);
  });

  test('a 100-player match carries a few thousand events', () => {
    const full = matches.filter((m) => participantsOf(m).length >= 95);
    assert.ok(full.length > 10);
    for (const m of full)
      assert.ok(
        m.telemetry!.length >= 2_500 && m.telemetry!.length <= 7_000,
        `${m.telemetry!.length} events`,
      );
  });
});

describe('full telemetry', () => {
  const big = first(
    2,
    { seed: 4, scale: 0.05, telemetry: 'full' },
    (m) => participantsOf(m).length >= 90,
  );

  test('the real rates: a position every 10 s, damage ticks, every kind, the same sums', () => {
    for (const m of big) {
      assertConsistentTelemetry(m, 'full');
      assertTelemetryAddsUp(m);
      assertEventKinds(m);
    }
  });

  test('a 100-player match is tens of thousands of events and 15–45 MB uncompressed', () => {
    for (const m of big) {
      const bytes = Buffer.byteLength(JSON.stringify(m.telemetry));
      assert.ok(m.telemetry!.length >= 20_000, `${m.telemetry!.length} events`);
      assert.ok(bytes >= 15e6 && bytes <= 45e6, `${(bytes / 1e6).toFixed(1)} MB`);
    }
  });

  test('the profile changes the telemetry, never the match', () => {
    const [fullMatch] = first(1, { seed: 4, scale: 0.05, telemetry: 'full' });
    const [defaultMatch] = first(1, { seed: 4, scale: 0.05, telemetry: 'default' });
    const { telemetry: a, ...fullRest } = fullMatch!;
    const { telemetry: b, ...defaultRest } = defaultMatch!;
    assert.deepEqual(fullRest, defaultRest);
    assert.ok(a!.length > 3 * b!.length, `${a!.length} events against ${b!.length}`);
  });
});

test('kinds by mode: ranked and esports play without red zones or flare guns, tournaments keep LogPlayerKill', () => {
  const base = {
    id: '',
    platformShard: 'pc-b',
    regionShard: 'pc-eu',
    createdAt: '',
    duration: 0,
    isCustomMatch: false,
    rosters: [],
  };
  const kinds = (m: Partial<MatchInput>) => expectedKinds({ ...base, ...m } as MatchInput);
  assert.ok(
    kinds({ gameMode: 'squad', mapName: 'Baltic_Main', matchType: 'official' }).includes(
      'LogRedZoneEnded',
    ),
  );
  assert.ok(
    kinds({ gameMode: 'squad', mapName: 'Summerland_Main', matchType: 'official' }).includes(
      'LogBlackZoneEnded',
    ),
  );
  const ranked = kinds({ gameMode: 'squad', mapName: 'Kiki_Main', matchType: 'competitive' });
  assert.ok(!ranked.includes('LogRedZoneEnded') && !ranked.includes('LogPlayerUseFlareGun'));
  assert.ok(
    !kinds({ gameMode: 'solo', mapName: 'Baltic_Main', matchType: 'official' }).includes(
      'LogPlayerMakeGroggy',
    ),
  );
  assert.ok(
    kinds({
      gameMode: 'squad',
      mapName: 'Baltic_Main',
      matchType: 'event',
      tournamentId: 'eu-pgs3',
    }).includes('LogPlayerKill'),
  );
});
