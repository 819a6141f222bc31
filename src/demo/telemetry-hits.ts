/**
 * Telemetry of the battle's hits: each told as one or more shots (LogPlayerAttack) whose damage
 * (LogPlayerTakeDamage, same attackId) adds up exactly to the hit's; the last shot carries the
 * hit's own attack id, which the knock or kill it caused points to. The full profile adds the
 * shots that missed. Throws are one LogPlayerUseThrowable with its attack; a ramming is an
 * attack from the vehicle. Rounds fired are reported every ten (LogWeaponFireCount), broken
 * armour on a finishing shot (LogArmorDestroy), and every weapon's figures kept for LogMatchEnd.
 */
import type { Hit } from './fighters.ts';
import { NO_ITEM } from './items.ts';
import { armourAt, gunItem, type Kit } from './telemetry-kit.ts';
import { quarter } from './telemetry-world.ts';
import { bodyPart, type WeaponTally } from './telemetry-tally.ts';
import type { Fields, TelemetryWriter } from './telemetry-writer.ts';
import { vehicleObject } from './vehicles.ts';

/** Every hit of the battle, with the rounds and armour they cost. */
export function emitHits(t: TelemetryWriter, kits: readonly Kit[], tally: WeaponTally): void {
  const { battle } = t.input;
  const finishing = new Map<number, 'knock' | 'kill'>();
  for (const k of battle.knocks) finishing.set(k.attackId, 'knock');
  for (const d of battle.deaths) if (d.hit) finishing.set(d.hit.attackId, 'kill');
  // The first finishing shot on someone wearing armour breaks it; later ones now and then.
  const shown = { armour: false };
  for (const hit of battle.hits)
    emitHit(t, hit, kits, tally, finishing.get(hit.attackId) ?? null, shown);
}

function emitHit(
  t: TelemetryWriter,
  hit: Hit,
  kits: readonly Kit[],
  tally: WeaponTally,
  finishing: 'knock' | 'kill' | null,
  shown: { armour: boolean },
): void {
  const { random, world, profile } = t;
  const kit = kits[hit.attacker];
  const landed = Math.max(t.fighters[hit.attacker]!.landedAt, t.fighters[hit.victim]!.landedAt);
  const earliest = Math.min(hit.at, landed + 100);
  const { weapon } = hit;
  const thrown = weapon.weaponClass === 'throwable';
  const rammed = weapon.weaponClass === 'vehicle';
  const shots =
    thrown || rammed
      ? 1
      : Math.max(1, Math.round(hit.damage / (profile.damagePerShot * random.float(0.7, 1.3))));
  const gap =
    weapon.weaponClass === 'sr' || weapon.weaponClass === 'dmr'
      ? random.int(900, 2_500)
      : random.int(90, 400);
  const item = rammed ? NO_ITEM : gunItem(kit, weapon, hit.at);
  const victimAt = world.position(hit.victim, hit.at);
  const attackerAt = world.offset(victimAt, hit.metres, random);
  t.shotFrom.set(hit.attackId, attackerAt);
  const causer = rammed ? hit.vehicleId! : weapon.causer;
  let left = hit.damage;
  const throwId = thrown ? hit.attackId : 0;
  if (thrown) {
    const at = Math.max(earliest, hit.at - random.int(1_500, 4_000));
    const attacker = t.character(hit.attacker, at, { location: attackerAt });
    const fields = {
      attackId: throwId,
      fireWeaponStackCount: random.int(0, 2),
      attacker,
      attackType: 'Weapon',
      weapon: item,
    };
    t.emit(at, { _T: 'LogPlayerAttack', ...fields, vehicle: null, common: null, _D: '' });
    t.emit(at, { _T: 'LogPlayerUseThrowable', ...fields, common: null, _D: '' });
  }
  for (let k = 0; k < shots; k++) {
    const last = k === shots - 1;
    const at = Math.max(earliest, hit.at - (shots - 1 - k) * gap);
    const damage = last
      ? left
      : quarter(Math.max(0.25, (left / (shots - k)) * random.float(0.6, 1.4)));
    left -= damage;
    const attackId = thrown ? throwId : last ? hit.attackId : t.attackId(hit.attacker);
    const attacker = t.character(hit.attacker, at, { location: attackerAt });
    const misses = thrown || rammed ? 0 : random.poisson(profile.missesPerShot || 2.5);
    if (!thrown) {
      if (profile.missesPerShot > 0)
        for (let m = misses; m > 0; m--) {
          const when = Math.max(earliest, Math.round(at - m * gap * 0.3));
          attack(t, when, t.attackId(hit.attacker), attacker, item, null);
        }
      const vehicle = rammed
        ? vehicleObject({
            vehicleId: causer,
            seatIndex: 0,
            healthPercent: 80,
            feulPercent: 60,
            velocity: 15,
            location: attackerAt,
          })
        : null;
      attack(t, at, attackId, attacker, item, vehicle);
    }
    const reason =
      weapon.damageTypeCategory !== 'Damage_Gun'
        ? 'NonSpecific'
        : last && hit.headshot
          ? 'HeadShot'
          : bodyPart(random, false);
    const victim = t.character(hit.victim, at, { location: victimAt });
    t.emit(at, {
      _T: 'LogPlayerTakeDamage',
      attackId,
      attacker,
      victim,
      damageTypeCategory: weapon.damageTypeCategory,
      damageReason: reason,
      damage,
      damageCauserName: causer,
      isThroughPenetrableWall: false,
      common: null,
      _D: '',
    });
    tally.shot(
      t,
      hit,
      item.itemId,
      at,
      damage,
      reason,
      thrown || rammed ? 1 : 1 + misses,
      last ? finishing : null,
    );
    const armour = last && finishing ? armourAt(kits[hit.victim], at) : null;
    if (armour && (!shown.armour || random.chance(0.15))) {
      shown.armour = true;
      t.emit(at, {
        _T: 'LogArmorDestroy',
        attackId,
        attacker,
        victim,
        damageTypeCategory: weapon.damageTypeCategory,
        damageReason: reason,
        damageCauserName: causer,
        item: armour,
        distance: quarter(hit.metres * 100),
        common: null,
        _D: '',
      });
    }
  }
}

function attack(
  t: TelemetryWriter,
  at: number,
  attackId: number,
  attacker: Fields,
  weapon: unknown,
  vehicle: unknown,
): void {
  t.emit(at, {
    _T: 'LogPlayerAttack',
    attackId,
    fireWeaponStackCount: t.random.int(0, 30),
    attacker,
    attackType: 'Weapon',
    weapon,
    vehicle,
    common: null,
    _D: '',
  });
}
