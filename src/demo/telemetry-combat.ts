/**
 * Telemetry of the fighting: knocks and revives, and for every death its LogPlayerKillV2 (with
 * the finishing hit or the zone's damage) or the disconnect, with characters, weapons and
 * distances that match the battle and the participants' stats.
 */
import type { Death, Hit, Knock } from './fighters.ts';
import type { DemoMap } from './game-catalogue.ts';
import type { Random } from './random.ts';
import { quarter } from './telemetry-world.ts';
import {
  bodyPart,
  damageInfo,
  noDamage,
  type Fields,
  type TelemetryWriter,
} from './telemetry-writer.ts';

/** A hit on a player: LogPlayerTakeDamage with the attacker `metres` away. */
function takeDamage(t: TelemetryWriter, hit: Hit, victimHealth: number): void {
  const { random, world } = t;
  const victimAt = world.position(hit.victim, hit.at);
  t.emit(hit.at, {
    _T: 'LogPlayerTakeDamage',
    attackId: hit.attackId,
    attacker: t.character(hit.attacker, hit.at, {
      location: world.offset(victimAt, hit.metres, random),
      health: quarter(random.float(20, 100)),
    }),
    victim: t.character(hit.victim, hit.at, { location: victimAt, health: victimHealth }),
    damageTypeCategory: hit.weapon.damageTypeCategory,
    damageReason: bodyPart(random, hit.headshot),
    damage: quarter(random.float(20, 70)),
    damageCauserName: hit.weapon.causer,
    isThroughPenetrableWall: false,
    common: null,
    _D: '',
  });
}

/** The knock and, when it came, the revive. */
export function emitKnock(t: TelemetryWriter, knock: Knock): void {
  const { random, world } = t;
  const victimAt = world.position(knock.victim, knock.at);
  t.emit(knock.at, {
    _T: 'LogPlayerMakeGroggy',
    attackId: knock.attackId,
    attacker: t.character(knock.attacker, knock.at, {
      location: world.offset(victimAt, knock.metres, random),
    }),
    victim: t.character(knock.victim, knock.at, { location: victimAt, health: 0 }),
    damageReason: bodyPart(random, knock.headshot),
    damageTypeCategory: knock.weapon.damageTypeCategory,
    damageCauserName: knock.weapon.causer,
    damageCauserAdditionalInfo: [],
    victimWeapon: t.fighters[knock.victim]!.loadout[0].causer,
    victimWeaponAdditionalInfo: [],
    distance: quarter(knock.metres * 100),
    isAttackerInVehicle: false,
    dBNOId: knock.dBNOId,
    isThroughPenetrableWall: false,
    common: null,
    _D: '',
  });
  if (knock.revive) {
    const at = knock.revive.at;
    t.emit(at, {
      _T: 'LogPlayerRevive',
      reviver: t.character(knock.revive.reviver, at, {
        location: world.offset(world.position(knock.victim, at), 1, random),
      }),
      victim: t.character(knock.victim, at, { health: 10 }),
      dBNOId: knock.dBNOId,
      common: null,
      _D: '',
    });
  }
}

/** Every death: LogPlayerKillV2 (with its finishing hit or zone damage), or a logout. */
export function emitDeaths(t: TelemetryWriter): void {
  const { random, world, fighters } = t;
  const { battle, arena, stats, map } = t.input;
  const killsSoFar = new Map<number, number>();
  for (const death of battle.deaths) {
    const v = fighters[death.victim]!;
    if (death.cause === 'logout') {
      t.emit(death.at, { _T: 'LogPlayerLogout', accountId: v.playerId, common: null, _D: '' });
      continue;
    }
    // The damage event of a direct kill; a knocked victim's finish is told by LogPlayerKillV2
    // alone.
    if (death.hit && !death.knock) takeDamage(t, death.hit, 0);
    if (death.cause === 'bluezone' || death.cause === 'redzone') zoneDamage(t, death);
    // The victim's team placement is known when this death wipes the team out.
    const ranking =
      !arena && world.rosterEnd[death.victim] === v.diedAt ? stats[death.victim]!.winPlace : 0;
    const victimAt = world.position(death.victim, death.at);
    const victim = t.character(death.victim, death.at, {
      location: victimAt,
      health: 0,
      ranking,
      blue: death.cause === 'bluezone',
    });
    const killer =
      death.killer === null
        ? null
        : t.character(death.killer, death.at, {
            location: world.offset(victimAt, death.hit?.metres ?? 2, random),
          });
    const info = killInfo(random, death, map);
    t.emit(death.at, {
      _T: 'LogPlayerKillV2',
      attackId: death.attackId,
      dBNOId: death.knock?.dBNOId ?? -1,
      victimGameResult: {
        rank: 0,
        gameResult: '',
        teamId: v.teamId,
        stats: t.resultStats(death.victim, killsSoFar.get(death.victim) ?? 0),
        accountId: v.playerId,
      },
      victim,
      victimWeapon: v.loadout[0].causer,
      victimWeaponAdditionalInfo: [],
      dBNOMaker: death.knock ? t.character(death.knock.attacker, death.knock.at) : null,
      dBNODamageInfo: death.knock
        ? damageInfo(
            death.knock.weapon.damageTypeCategory,
            death.knock.weapon.causer,
            bodyPart(random, death.knock.headshot),
            quarter(death.knock.metres * 100),
          )
        : noDamage(),
      finisher: death.bleedOut || death.cause !== 'player' ? null : killer,
      finishDamageInfo: death.bleedOut ? damageInfo('Damage_Groggy', '', 'None', -1) : info,
      killer,
      killerDamageInfo: info,
      assists_AccountId: death.assists.map((i) => fighters[i]!.playerId),
      teamKillers_AccountId:
        death.teamKill && death.killer !== null ? [fighters[death.killer]!.playerId] : [],
      isSuicide: death.cause === 'suicide',
      common: null,
      _D: '',
    });
    if (death.killer !== null && !death.teamKill)
      killsSoFar.set(death.killer, (killsSoFar.get(death.killer) ?? 0) + 1);
    // Players leave a while after dying (in an arena they respawn instead).
    const leaveAt = Math.min(battle.durationMs - 1_000, death.at + random.int(3_000, 90_000));
    if (!arena && v.player && leaveAt > death.at)
      t.emit(leaveAt, { _T: 'LogPlayerLogout', accountId: v.playerId, common: null, _D: '' });
  }
}

/** Blue-zone ticks (or a red-zone bomb) before a zone death. */
function zoneDamage(t: TelemetryWriter, death: Death): void {
  const blue = death.cause === 'bluezone';
  t.emit(death.at, {
    _T: 'LogPlayerTakeDamage',
    attackId: -1,
    attacker: null,
    victim: t.character(death.victim, death.at, { health: 0, blue }),
    damageTypeCategory: blue ? 'Damage_BlueZone' : 'Damage_Explosion_RedZone',
    damageReason: 'NonSpecific',
    damage: quarter(t.random.float(3, 25)),
    damageCauserName: blue ? t.input.map.blueZoneCauser : 'RedZoneBomb_C',
    isThroughPenetrableWall: false,
    common: null,
    _D: '',
  });
}

/** `killerDamageInfo` of a death: the finishing weapon, the vehicle, the zone or the mishap. */
function killInfo(random: Random, death: Death, map: DemoMap): Fields {
  const shot = death.hit ?? (death.bleedOut ? death.knock : null);
  if (shot)
    return damageInfo(
      shot.weapon.damageTypeCategory,
      shot.weapon.causer,
      bodyPart(random, shot.headshot),
      quarter(shot.metres * 100),
    );
  if (death.cause === 'player' && death.vehicleId)
    return damageInfo(
      'Damage_VehicleHit',
      death.vehicleId,
      'NonSpecific',
      quarter(random.float(50, 600)),
    );
  if (death.cause === 'bluezone')
    return damageInfo('Damage_BlueZone', map.blueZoneCauser, 'NonSpecific', -1);
  if (death.cause === 'redzone')
    return damageInfo('Damage_Explosion_RedZone', 'RedZoneBomb_C', 'NonSpecific', -1);
  if (death.suicide)
    return damageInfo(death.suicide.category, death.suicide.causer, 'NonSpecific', -1);
  return noDamage();
}
