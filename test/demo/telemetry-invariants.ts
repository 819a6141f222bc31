/**
 * The telemetry of every generated match tells one story with its participants: the file's
 * shape, who appears, kills and deaths, every damage tied to its attack, every living player
 * positioned throughout, the zone's phases on the map's timings, care packages that land where
 * they spawned.
 */
import assert from 'node:assert/strict';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import { demoMap } from '../../src/demo/maps.ts';
import { TELEMETRY_PROFILE, type TelemetryProfileName } from '../../src/demo/telemetry-profile.ts';
import {
  indexTelemetry,
  tally,
  type Character,
  type Event,
  type TelemetryIndex,
} from './telemetry-index.ts';

const MS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DEFINITION_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;
const CHARACTER_KEYS = [
  'character',
  'attacker',
  'victim',
  'killer',
  'reviver',
  'finisher',
  'dBNOMaker',
];

/** The telemetry of a match agrees with its participants, stats and time window. */
export function assertConsistentTelemetry(
  match: MatchInput,
  profile: TelemetryProfileName = 'default',
): void {
  const x = indexTelemetry(match);
  assert.ok(x.events.length > 0, 'telemetry present');
  assertShape(x);
  assertPeople(x);
  assertKillsAndDeaths(x);
  assertAttacks(x);
  assertPositions(x, TELEMETRY_PROFILE[profile].positionEveryMs);
  if (match.gameMode !== 'tdm') {
    assertPhases(x);
    assertCarePackages(x);
  }
}

function assertShape(x: TelemetryIndex): void {
  const { match, events, rest } = x;
  const definition = events[0]!;
  assert.equal(definition._T, 'LogMatchDefinition');
  assert.match(definition._D, DEFINITION_TIMESTAMP);
  assert.equal(definition.common, undefined, 'LogMatchDefinition has no common');
  assert.match(
    String(definition.MatchId),
    new RegExp(
      `^match\\.bro\\.official\\.[a-z0-9-]+\\.${match.platformShard}\\.${match.gameMode}\\.[a-z]+\\.\\d{4}\\.\\d{2}\\.\\d{2}\\.\\d{2}\\.${match.id}$`,
    ),
  );
  const definedAt = x.at(definition);
  assert.ok(definedAt >= x.start && definedAt <= x.end, 'LogMatchDefinition inside the match');
  let previous = x.start;
  const extent = demoMap(match.mapName).extentCm;
  for (const e of rest) {
    assert.match(e._D, MS_TIMESTAMP, `${e._T} _D`);
    const at = x.at(e);
    assert.ok(at >= previous, `${e._T} in time order`);
    assert.ok(at <= x.end, `${e._T} before the match end`);
    previous = at;
    assert.equal(typeof (e.common as { isGame: number }).isGame, 'number', `${e._T} common.isGame`);
    assert.equal(Object.keys(e)[0], '_T', 'modern key order: _T first');
    for (const key of CHARACTER_KEYS) {
      const c = e[key] as Character | null | undefined;
      if (!c || c.accountId === '') continue;
      const p = x.byId.get(c.accountId);
      assert.ok(p, `${e._T}.${key} is a participant`);
      assert.equal(c.name, p.name);
      assert.equal(c.teamId, x.teamOf.get(c.accountId));
      const { x: cx, y: cy } = c.location;
      assert.ok(
        cx >= 0 && cx <= extent && cy >= 0 && cy <= extent,
        `${e._T}.${key} inside the map`,
      );
    }
  }
}

function assertPeople(x: TelemetryIndex): void {
  const ids = x.participants.map((p) => p.playerId).sort();
  const start = x.of('LogMatchStart');
  assert.equal(start.length, 1);
  assert.equal(
    (start[0]!.characters as unknown[]).length,
    ids.length,
    'LogMatchStart lists everyone',
  );
  assert.equal(start[0]!.blueZoneCustomOptions, '[]');
  const created = new Set(x.of('LogPlayerCreate').map((e) => (e.character as Character).accountId));
  assert.deepEqual([...created].sort(), ids, 'LogPlayerCreate per participant');
  const logins = new Set(x.of('LogPlayerLogin').map((e) => e.accountId as string));
  assert.deepEqual(
    [...logins].sort(),
    ids.filter((id) => id.startsWith('account.')),
    'LogPlayerLogin per player',
  );
  const end = x.of('LogMatchEnd');
  assert.equal(end.length, 1);
  for (const w of end[0]!.characters as Array<{ character: Character }>)
    assert.equal(
      w.character.ranking,
      x.byId.get(w.character.accountId)!.stats.winPlace,
      'final ranking = winPlace',
    );
  const results = (end[0]!.gameResultOnFinished as { results: Array<{ accountId: string }> })
    .results;
  const winners = x.match.rosters.find((r) => r.won)!.participants.map((p) => p.playerId);
  assert.deepEqual(
    results.map((r) => r.accountId).sort(),
    [...winners].sort(),
    'results of the winning team',
  );
}

function assertKillsAndDeaths(x: TelemetryIndex): void {
  const kills = x.of('LogPlayerKillV2');
  const { match } = x;
  if (match.gameMode === 'tdm') {
    assert.equal(
      kills.length,
      x.participants.reduce((n, p) => n + p.stats.kills, 0),
      'TDM: a kill event per kill',
    );
    return;
  }
  const victims = kills.map((e) => (e.victim as Character).accountId);
  assert.equal(new Set(victims).size, victims.length, 'one death each');
  const dead = x.participants.filter((p) => p.stats.deathType !== 'alive').map((p) => p.playerId);
  const logouts = x.participants
    .filter((p) => p.stats.deathType === 'logout')
    .map((p) => p.playerId);
  assert.deepEqual(
    [...victims, ...logouts].sort(),
    dead.sort(),
    'a death event per dead participant',
  );
  const diedAt = new Map(kills.map((e) => [(e.victim as Character).accountId, x.at(e)]));
  for (const e of kills) {
    const killer = e.killer as Character | null;
    if (killer && !e.isSuicide)
      assert.ok((diedAt.get(killer.accountId) ?? Infinity) >= x.at(e), 'killers are alive');
    const v = x.byId.get((e.victim as Character).accountId)!;
    assert.equal(
      Math.min(match.duration, Math.floor((x.at(e) - x.start) / 1000)),
      v.stats.timeSurvived,
      'death at timeSurvived',
    );
    if (v.stats.deathType === 'byzone') assert.equal(e.killer, null, 'zone deaths have no killer');
    if (v.stats.deathType === 'byplayer') assert.ok(e.killer, 'deaths by player have a killer');
  }
  if (x.of('LogPlayerKill').length > 0)
    assert.equal(
      x.of('LogPlayerKill').length,
      kills.length,
      'tournament files tell every death twice',
    );
}

/** Every damage from someone, knock, kill and throw points to a LogPlayerAttack of theirs. */
function assertAttacks(x: TelemetryIndex): void {
  const attacks = new Map<number, Event>();
  for (const a of x.of('LogPlayerAttack')) {
    assert.ok(!attacks.has(a.attackId as number), `attack id ${String(a.attackId)} unique`);
    attacks.set(a.attackId as number, a);
  }
  const linked = (e: Event, who: Character | null, what: string): void => {
    const a = attacks.get(e.attackId as number);
    assert.ok(a, `${what} ${String(e.attackId)} has its LogPlayerAttack`);
    assert.ok(x.at(a) <= x.at(e), `${what}: the attack comes first`);
    if (who)
      assert.equal((a.attacker as Character).accountId, who.accountId, `${what}: same attacker`);
  };
  for (const e of x.of('LogPlayerTakeDamage')) {
    const attacker = e.attacker as Character | null;
    if (attacker) linked(e, attacker, 'damage');
    else assert.equal(e.attackId, -1, 'damage without an attacker has attack id -1');
  }
  for (const e of x.of('LogPlayerMakeGroggy')) linked(e, e.attacker as Character, 'knock');
  for (const e of [...x.of('LogPlayerUseThrowable'), ...x.of('LogPlayerUseFlareGun')])
    linked(e, e.attacker as Character, e._T);
  for (const e of x.of('LogPlayerKillV2')) if (e.attackId !== -1) linked(e, null, 'kill');
  const groggy = new Set(x.of('LogPlayerMakeGroggy').map((e) => e.dBNOId));
  for (const e of x.of('LogPlayerRevive'))
    assert.ok(groggy.has(e.dBNOId), 'a revive follows its knock');
}

/** Every player is positioned from take-off to their death (or the end), never further apart than `every`. */
function assertPositions(x: TelemetryIndex, every: number): void {
  const times = new Map<string, number[]>();
  for (const e of x.of('LogPlayerPosition')) {
    const id = (e.character as Character).accountId;
    const list = times.get(id);
    if (list) list.push(x.at(e));
    else times.set(id, [x.at(e)]);
  }
  const deaths = tally(x.of('LogPlayerKillV2'), (e) => [
    [(e.victim as Character).accountId, x.at(e)],
  ]);
  const left = tally(x.of('LogPlayerLogout'), (e) => [[e.accountId as string, x.at(e)]]);
  for (const p of x.participants) {
    const list = times.get(p.playerId) ?? [];
    const tdm = x.match.gameMode === 'tdm';
    const until =
      p.stats.deathType === 'alive' || (tdm && p.stats.deathType !== 'logout')
        ? x.end
        : p.stats.deathType === 'logout'
          ? left.get(p.playerId)!
          : deaths.get(p.playerId)!;
    assert.ok(list.length > 0, `${p.name} has positions`);
    assert.ok(list[0]! - x.matchStart <= every, `${p.name}: positioned from the start`);
    for (let k = 1; k < list.length; k++)
      assert.ok(list[k]! - list[k - 1]! <= every, `${p.name}: a position every ${every / 1000} s`);
    assert.ok(until - list.at(-1)! <= every, `${p.name}: positioned until the end`);
    assert.ok(list.at(-1)! <= until, `${p.name}: no position after death`);
  }
}

/** Phases in order, at the map's timings from take-off; the zone only closes in. */
function assertPhases(x: TelemetryIndex): void {
  const { zone } = demoMap(x.match.mapName);
  let at = x.matchStart + zone.firstCircleAfterS * 1000;
  const expected: Array<[number, number]> = [];
  zone.phases.forEach(([wait, shrink], k) => {
    expected.push([k + 1, at], [k + 1, at + wait * 1000]);
    at += (wait + shrink) * 1000;
  });
  const changes = x
    .of('LogPhaseChange')
    .map((e) => [e.phase as number, x.at(e)] as [number, number]);
  assert.ok(changes.length > 0, 'phases');
  assert.deepEqual(
    changes,
    expected.filter(([, t]) => t <= x.end),
    'phases at the map timings',
  );
  let radius = Infinity;
  let alive = Infinity;
  for (const e of x.of('LogGameStatePeriodic')) {
    const g = e.gameState as {
      safetyZoneRadius: number;
      poisonGasWarningRadius: number;
      numAlivePlayers: number;
    };
    assert.ok(g.safetyZoneRadius <= radius, 'the blue zone only closes in');
    assert.ok(g.poisonGasWarningRadius <= g.safetyZoneRadius, 'the next circle lies inside');
    assert.ok(g.numAlivePlayers <= alive, 'the living only get fewer');
    radius = g.safetyZoneRadius;
    alive = g.numAlivePlayers;
  }
}

/** Every package lands where it spawned, later; loot comes out of a landed package. */
function assertCarePackages(x: TelemetryIndex): void {
  const spawns = x.of('LogCarePackageSpawn');
  const lands = x.of('LogCarePackageLand');
  assert.equal(lands.length, spawns.length, 'every package that spawns lands');
  type Package = {
    itemPackageId: string;
    location: { x: number; y: number };
    items: Array<{ itemId: string }>;
  };
  lands.forEach((land) => {
    const l = land.itemPackage as Package;
    const spawn = spawns.find((s) => {
      const p = s.itemPackage as Package;
      return (
        p.itemPackageId === l.itemPackageId &&
        p.location.x === l.location.x &&
        p.location.y === l.location.y
      );
    });
    assert.ok(spawn && x.at(spawn) < x.at(land), 'a landing follows its spawn');
  });
  for (const e of x.of('LogItemPickupFromCarepackage')) {
    const itemId = (e.item as { itemId: string }).itemId;
    const from = lands.filter(
      (l) =>
        x.at(l) <= x.at(e) && (l.itemPackage as Package).items.some((it) => it.itemId === itemId),
    );
    assert.ok(from.length > 0, `${itemId} taken from a landed package`);
  }
}
