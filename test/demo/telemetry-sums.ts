/**
 * What the telemetry adds up to, per participant, equals their stats in the match document:
 * kills, knocks, assists, revives, heals, boosts, damage, headshots, longest kill, road kills,
 * distances walked, ridden and swum, weapons acquired, vehicles destroyed — the figures weapon
 * and survival mastery will be derived from.
 */
import assert from 'node:assert/strict';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import {
  indexTelemetry,
  near,
  tally,
  type Character,
  type Event,
  type Item,
} from './telemetry-index.ts';

type DamageInfo = { damageReason: string; damageTypeCategory: string; distance: number };
type Result = {
  accountId: string;
  stats: { distanceOnFoot: number; distanceOnSwim: number; distanceOnVehicle: number };
};

const who = (e: Event, key: string): string => (e[key] as Character | null)?.accountId ?? '';
const one = (e: Event, key: string): Array<readonly [string, number]> => [[who(e, key), 1]];

export function assertTelemetryAddsUp(match: MatchInput): void {
  const x = indexTelemetry(match);
  const kills = x.of('LogPlayerKillV2');
  const enemyKills = kills.filter((e) => {
    const k = e.killer as Character | null;
    return k && !e.isSuicide && k.teamId !== (e.victim as Character).teamId;
  });
  const count = (events: Event[], pick: (e: Event) => Array<readonly [string, number]>) =>
    tally(events, pick);
  const uses = (sub: string) =>
    count(x.of('LogItemUse'), (e) =>
      (e.item as Item).subCategory === sub ? one(e, 'character') : [],
    );
  const pickups = [
    ...x.of('LogItemPickup'),
    ...x.of('LogItemPickupFromLootBox'),
    ...x.of('LogItemPickupFromCarepackage'),
  ];
  const figures = {
    kills: count(enemyKills, (e) => one(e, 'killer')),
    teamKills: count(kills, (e) =>
      (e.teamKillers_AccountId as string[]).map((id) => [id, 1] as const),
    ),
    DBNOs: count(x.of('LogPlayerMakeGroggy'), (e) => one(e, 'attacker')),
    revives: count(x.of('LogPlayerRevive'), (e) => one(e, 'reviver')),
    assists: count(kills, (e) => (e.assists_AccountId as string[]).map((id) => [id, 1] as const)),
    heals: uses('Heal'),
    boosts: uses('Boost'),
    headshotKills: count(enemyKills, (e) =>
      (e.killerDamageInfo as DamageInfo).damageReason === 'HeadShot' ? one(e, 'killer') : [],
    ),
    roadKills: count(enemyKills, (e) =>
      (e.killerDamageInfo as DamageInfo).damageTypeCategory === 'Damage_VehicleHit'
        ? one(e, 'killer')
        : [],
    ),
    weaponsAcquired: count(pickups, (e) =>
      (e.item as Item).category === 'Weapon' ? one(e, 'character') : [],
    ),
    vehicleDestroys: count(x.of('LogVehicleDestroy'), (e) => one(e, 'attacker')),
  };
  const damage = count(x.of('LogPlayerTakeDamage'), (e) => {
    const a = e.attacker as Character | null;
    return a && a.accountId !== '' && a.teamId !== (e.victim as Character).teamId
      ? [[a.accountId, e.damage as number]]
      : [];
  });
  const longest = new Map<string, number>();
  for (const e of enemyKills) {
    const id = who(e, 'killer');
    longest.set(
      id,
      Math.max(longest.get(id) ?? 0, (e.killerDamageInfo as DamageInfo).distance / 100),
    );
  }
  const ride = count(x.of('LogVehicleLeave'), (e) =>
    (e.vehicle as { vehicleType: string }).vehicleType === 'TransportAircraft'
      ? []
      : [[who(e, 'character'), e.rideDistance as number]],
  );
  const swim = count(x.of('LogSwimEnd'), (e) => [[who(e, 'character'), e.swimDistance as number]]);
  const results = new Map<string, Result>();
  for (const e of kills) results.set(who(e, 'victim'), e.victimGameResult as Result);
  const end = x.of('LogMatchEnd')[0]!;
  for (const r of (end.gameResultOnFinished as { results: Result[] }).results)
    results.set(r.accountId, r);

  for (const p of x.participants) {
    const s = p.stats;
    for (const [name, m] of Object.entries(figures))
      assert.equal(m.get(p.playerId) ?? 0, s[name as keyof typeof figures], `${p.name}: ${name}`);
    assert.ok(
      near(damage.get(p.playerId) ?? 0, s.damageDealt),
      `${p.name}: damage ${damage.get(p.playerId)} = ${s.damageDealt}`,
    );
    assert.ok(near(longest.get(p.playerId) ?? 0, s.longestKill), `${p.name}: longest kill`);
    assert.ok(
      near(ride.get(p.playerId) ?? 0, s.rideDistance),
      `${p.name}: ride ${ride.get(p.playerId)} = ${s.rideDistance}`,
    );
    assert.ok(near(swim.get(p.playerId) ?? 0, s.swimDistance), `${p.name}: swim`);
    const result = results.get(p.playerId);
    if (result) {
      assert.ok(near(result.stats.distanceOnFoot / 100, s.walkDistance), `${p.name}: walked`);
      assert.ok(near(result.stats.distanceOnVehicle / 100, s.rideDistance), `${p.name}: ridden`);
      assert.ok(near(result.stats.distanceOnSwim / 100, s.swimDistance), `${p.name}: swum`);
    }
  }
  assertWeaponStats(x.of('LogPlayerTakeDamage'), end);
}

/** LogMatchEnd.allWeaponStats holds the damage each account's weapons did, hit for hit. */
function assertWeaponStats(damage: Event[], end: Event): void {
  type Figures = { damage: number; dBNODamage: number; hits: number };
  const dealt = tally(damage, (e) => {
    const a = e.attacker as Character | null;
    const own = a?.accountId === (e.victim as Character).accountId;
    return a && a.accountId !== '' && !own && e.damageTypeCategory !== 'Damage_VehicleHit'
      ? [[a.accountId, e.damage as number]]
      : [];
  });
  const stats = end.allWeaponStats as Record<string, Figures[]>;
  for (const [id, total] of dealt) {
    const weapons = stats[id] ?? [];
    const sum = weapons.reduce((n, w) => n + w.damage + w.dBNODamage, 0);
    assert.ok(near(sum, total), `allWeaponStats of ${id}: ${sum} = ${total}`);
  }
}
