/**
 * Telemetry of deaths: LogPlayerKillV2 for every death (and the older LogPlayerKill beside it in
 * tournament matches) with the killer, the knocker and the finisher, their damage infos (weapon,
 * attachments, body part, distance), assists and team killers; the damage that killed someone
 * without a player's hand (the blue zone, a bomb, a fall, their own grenade); and the logouts.
 */
import type { Death } from './fighters.ts';
import type { ZoneCause } from './hazards.ts';
import { NO_ITEM, weaponItem } from './items.ts';
import { gunItem, type Kit } from './telemetry-kit.ts';
import { bodyPart } from './telemetry-tally.ts';
import { quarter } from './telemetry-world.ts';
import type { Fields, TelemetryWriter } from './telemetry-writer.ts';
import { victimWeapon } from './telemetry-combat.ts';
import { ON_FOOT } from './vehicles.ts';

const ZONE_DAMAGE: Readonly<
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

/** A `DamageInfo` object (LogPlayerKillV2). */
const damageInfo = (
  category: string,
  causer: string,
  reason: string,
  distanceCm: number,
  info: readonly string[] = [],
): Fields => ({
  damageReason: reason,
  damageTypeCategory: category,
  damageCauserName: causer,
  additionalInfo: info,
  distance: distanceCm,
  isThroughPenetrableWall: false,
});
const NO_DAMAGE = damageInfo('', '', '', -1);

/** Every death of the battle, in order. */
export function emitDeaths(
  t: TelemetryWriter,
  kits: readonly Kit[],
  causes: ReadonlyMap<number, ZoneCause>,
): void {
  const { random, world, fighters } = t;
  const { battle, arena, stats, map } = t.input;
  const killsSoFar = new Map<number, number>();
  for (const death of battle.deaths) {
    const v = fighters[death.victim]!;
    if (death.cause === 'logout') {
      t.emit(death.at, { _T: 'LogPlayerLogout', accountId: v.playerId, common: null, _D: '' });
      continue;
    }
    const zone = causes.get(death.victim);
    const attackId = zone ? zoneDamage(t, death, zone) : death.attackId;
    if (death.cause === 'suicide') selfDamage(t, death);
    const ranking =
      !arena && world.rosterEnd[death.victim] === v.diedAt ? stats[death.victim]!.winPlace : 0;
    const victimAt = world.position(death.victim, death.at);
    const victim = t.character(death.victim, death.at, {
      location: victimAt,
      health: 0,
      ranking,
      individualRanking: arena ? 0 : world.aliveCount(death.at) + 1,
      blue: zone === 'bluezone' ? true : undefined,
    });
    const shot = death.hit ?? (death.bleedOut ? death.knock : null);
    const killerAt = shot
      ? (t.shotFrom.get(shot.attackId) ?? world.offset(victimAt, shot.metres, random))
      : null;
    const killer =
      death.killer === null
        ? null
        : t.character(death.killer, death.at, killerAt ? { location: killerAt } : {});
    const info = killInfo(t, death, kits, zone, map.blueZoneCauser);
    const knock = death.knock;
    const [weapon, weaponInfo] = victimWeapon(kits[death.victim], death.at);
    const result = {
      rank: 0,
      gameResult: '',
      teamId: v.teamId,
      stats: t.resultStats(death.victim, killsSoFar.get(death.victim) ?? 0),
      accountId: v.playerId,
      isRewardAbuse: false,
    };
    const knockInfo = knock
      ? damageInfo(
          knock.weapon.damageTypeCategory,
          knock.weapon.causer,
          bodyPart(random, knock.headshot),
          quarter(knock.metres * 100),
          gunItem(kits[knock.attacker], knock.weapon, knock.at).attachedItems,
        )
      : NO_DAMAGE;
    t.emit(death.at, {
      _T: 'LogPlayerKillV2',
      attackId,
      dBNOId: knock?.dBNOId ?? -1,
      victimGameResult: result,
      victim,
      victimWeapon: weapon,
      victimWeaponAdditionalInfo: weaponInfo,
      dBNOMaker: knock ? t.character(knock.attacker, knock.at) : null,
      dBNODamageInfo: knockInfo,
      finisher: death.bleedOut || death.cause !== 'player' ? null : killer,
      finishDamageInfo: death.bleedOut ? damageInfo('Damage_Groggy', '', 'None', -1) : info,
      killer,
      killerDamageInfo: info,
      assists_AccountId: death.assists.map((i) => fighters[i]!.playerId),
      teamKillers_AccountId:
        death.teamKill && death.killer !== null ? [fighters[death.killer]!.playerId] : [],
      isSuicide: death.cause === 'suicide',
      victimVehicle: ON_FOOT,
      killerVehicle: ON_FOOT,
      common: null,
      _D: '',
    });
    if (t.input.tournament) {
      const assistant = death.assists[0];
      t.emit(death.at, {
        _T: 'LogPlayerKill',
        attackId,
        killer,
        victim,
        assistant: assistant === undefined ? null : t.character(assistant, death.at),
        dBNOId: knock?.dBNOId ?? -1,
        damageReason: info.damageReason,
        damageTypeCategory: info.damageTypeCategory,
        damageCauserName: info.damageCauserName,
        damageCauserAdditionalInfo: info.additionalInfo,
        victimWeapon: weapon,
        victimWeaponAdditionalInfo: weaponInfo,
        distance: info.distance,
        victimGameResult: result,
        isThroughPenetrableWall: false,
        common: null,
        _D: '',
      });
    }
    if (death.killer !== null && !death.teamKill)
      killsSoFar.set(death.killer, (killsSoFar.get(death.killer) ?? 0) + 1);
    // Players leave a while after dying (in an arena they respawn instead).
    const leaveAt = Math.min(battle.durationMs - 1_000, death.at + random.int(3_000, 90_000));
    if (!arena && v.player && leaveAt > death.at)
      t.emit(leaveAt, { _T: 'LogPlayerLogout', accountId: v.playerId, common: null, _D: '' });
  }
}

/** `killerDamageInfo`: the finishing shot (with the weapon's attachments), the vehicle, the zone or the mishap. */
function killInfo(
  t: TelemetryWriter,
  death: Death,
  kits: readonly Kit[],
  zone: ZoneCause | undefined,
  blueCauser: string,
): Fields {
  const shot = death.hit ?? (death.bleedOut ? death.knock : null);
  if (shot) {
    const rammed = shot.weapon.weaponClass === 'vehicle';
    const gun = shot.weapon.damageTypeCategory === 'Damage_Gun';
    return damageInfo(
      shot.weapon.damageTypeCategory,
      rammed ? shot.vehicleId! : shot.weapon.causer,
      gun ? bodyPart(t.random, shot.headshot) : 'NonSpecific',
      quarter(shot.metres * 100),
      rammed ? [] : gunItem(kits[shot.attacker], shot.weapon, shot.at).attachedItems,
    );
  }
  if (zone) {
    const z = ZONE_DAMAGE[zone];
    return damageInfo(z.category, zone === 'bluezone' ? blueCauser : z.causer, 'NonSpecific', -1);
  }
  if (death.suicide)
    return damageInfo(death.suicide.category, death.suicide.causer, 'NonSpecific', -1);
  return NO_DAMAGE;
}

/** The zone's damage before a zone death: blue-zone ticks, or the bomb that fell (its attack id). */
function zoneDamage(t: TelemetryWriter, death: Death, zone: ZoneCause): number {
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
function selfDamage(t: TelemetryWriter, death: Death): void {
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
