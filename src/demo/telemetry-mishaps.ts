/**
 * The damage that kills without a player's hand: the blue zone's ticks, the bomb of a red zone
 * (or Karakin's black zone) with its attack from nobody, a fall, a crash, drowning, one's own
 * grenade (thrown, so it has its attack).
 */
import type { Death } from './fighters.ts';
import type { ZoneCause } from './hazards.ts';
import { NO_ITEM, weaponItem } from './items.ts';
import { quarter } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';

export const ZONE_DAMAGE: Readonly<
  Record<ZoneCause, { category: string; causer: string; attack: string }>
> = {
  bluezone: { category: 'Damage_BlueZone', causer: '', attack: '' },
  redzone: { category: 'Damage_Explosion_RedZone', causer: 'RedZoneBomb_C', attack: 'RedZone' },
  blackzone: {
    category: 'Damage_Explosion_BlackZone',
    causer: 'BlackZoneController_Def_C',
    attack: 'BlackZone',
  },
};

/** The zone's damage before a zone death: blue-zone ticks, or the bomb that fell (its attack id). */
export function zoneDamage(t: TelemetryWriter, death: Death, zone: ZoneCause): number {
  const z = ZONE_DAMAGE[zone];
  const blue = zone === 'bluezone';
  const tick = t.profile.damageTickMs;
  const ticks = blue && tick > 0 ? Math.min(60, Math.round(30_000 / tick)) : 1;
  const attackId = blue ? -1 : t.attackId(-1);
  if (!blue) {
    const bomb = {
      attackId,
      fireWeaponStackCount: 0,
      attacker: t.sentinel,
      attackType: z.attack,
      weapon: NO_ITEM,
    };
    t.emit(death.at - 1_500, {
      _T: 'LogPlayerAttack',
      ...bomb,
      vehicle: null,
      common: null,
      _D: '',
    });
  }
  for (let k = ticks - 1; k >= 0; k--) {
    const at = death.at - k * tick;
    t.emit(at, {
      _T: 'LogPlayerTakeDamage',
      attackId,
      attacker: blue ? null : t.sentinel,
      victim: t.character(death.victim, at, { blue }),
      damageTypeCategory: z.category,
      damageReason: 'NonSpecific',
      damage: quarter(blue ? t.random.float(2, 12) : t.random.float(60, 100)),
      damageCauserName: blue ? t.input.map.blueZoneCauser : z.causer,
      isThroughPenetrableWall: false,
      common: null,
      _D: '',
    });
  }
  return attackId;
}

/** A fall, a crash, drowning or one's own grenade: the damage that did it. */
export function selfDamage(t: TelemetryWriter, death: Death): void {
  const s = death.suicide!;
  const own = death.attackId !== -1;
  const victim = t.character(death.victim, death.at);
  if (own) {
    const thrown = weaponItem({
      causer: s.causer,
      itemId: s.causer.includes('Grenade') ? 'Item_Weapon_Grenade_C' : 'Item_Weapon_Molotov_C',
      weaponClass: 'throwable',
      damageTypeCategory: s.category,
    });
    const fields = {
      attackId: death.attackId,
      fireWeaponStackCount: 0,
      attacker: victim,
      attackType: 'Weapon',
      weapon: thrown,
    };
    t.emit(death.at - 2_000, {
      _T: 'LogPlayerAttack',
      ...fields,
      vehicle: null,
      common: null,
      _D: '',
    });
    t.emit(death.at - 2_000, { _T: 'LogPlayerUseThrowable', ...fields, common: null, _D: '' });
  }
  t.emit(death.at, {
    _T: 'LogPlayerTakeDamage',
    attackId: death.attackId,
    attacker: own ? victim : null,
    victim,
    damageTypeCategory: s.category,
    damageReason: 'NonSpecific',
    damage: quarter(t.random.float(40, 100)),
    damageCauserName: s.causer,
    isThroughPenetrableWall: false,
    common: null,
    _D: '',
  });
}
