/**
 * Telemetry of deaths: LogPlayerKillV2 for every death (and the older LogPlayerKill beside it in
 * tournament matches) with the killer, the knocker and the finisher, their damage infos (weapon,
 * attachments, body part, distance), assists and team killers; the damage that killed someone
 * without a player's hand (the blue zone, a bomb, a fall, their own grenade); and the logouts.
 */
import type { Death } from './fighters.ts';
import type { ZoneCause } from './hazards.ts';
import { gunItem, type Kit } from './telemetry-kit.ts';
import { bodyPart } from './telemetry-tally.ts';
import { quarter } from './telemetry-world.ts';
import type { Fields, TelemetryWriter } from './telemetry-writer.ts';
import { victimWeapon } from './telemetry-combat.ts';
import { ZONE_DAMAGE, selfDamage, zoneDamage } from './telemetry-mishaps.ts';
import { ON_FOOT } from './vehicles.ts';

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
