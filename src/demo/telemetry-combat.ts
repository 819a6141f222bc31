/**
 * Telemetry of knocks and revives: LogPlayerMakeGroggy on the knocking shot (same attack id,
 * the knocker's weapon with its attachments, the distance), the bleeding while knocked (ticks in
 * the full profile), a teammate carrying the knocked one now and then (LogCharacterCarry), and
 * LogPlayerRevive with the knock's dBNOId.
 */
import type { Knock } from './fighters.ts';
import { gunInHand, gunItem, type Kit } from './telemetry-kit.ts';
import { bodyPart } from './telemetry-tally.ts';
import { quarter } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';

/** What the victim holds at `at`: `victimWeapon` and its attachments. */
export function victimWeapon(kit: Kit | undefined, at: number): [string, readonly string[]] {
  const gun = gunInHand(kit, at);
  return gun ? [gun.causer, gunItem(kit, gun, at).attachedItems] : ['', []];
}

/**
 * The knock, the bleeding, the carry and, when it came, the revive. `showcase`: the match's first
 * revive, which always comes with a carry.
 */
export function emitKnock(
  t: TelemetryWriter,
  knock: Knock,
  kits: readonly Kit[],
  endsAt: number,
  showcase: boolean,
): void {
  const { random, world, profile } = t;
  const victimAt = world.position(knock.victim, knock.at);
  const from = t.shotFrom.get(knock.attackId) ?? world.offset(victimAt, knock.metres, random);
  const [weapon, weaponInfo] = victimWeapon(kits[knock.victim], knock.at);
  t.emit(knock.at, {
    _T: 'LogPlayerMakeGroggy',
    attackId: knock.attackId,
    attacker: t.character(knock.attacker, knock.at, { location: from }),
    victim: t.character(knock.victim, knock.at, { location: victimAt, health: 0 }),
    damageReason:
      knock.weapon.damageTypeCategory === 'Damage_Gun'
        ? bodyPart(random, knock.headshot)
        : 'NonSpecific',
    damageTypeCategory: knock.weapon.damageTypeCategory,
    damageCauserName: knock.weapon.causer,
    damageCauserAdditionalInfo: gunItem(kits[knock.attacker], knock.weapon, knock.at).attachedItems,
    victimWeapon: weapon,
    victimWeaponAdditionalInfo: weaponInfo,
    distance: quarter(knock.metres * 100),
    isAttackerInVehicle: false,
    dBNOId: knock.dBNOId,
    isThroughPenetrableWall: false,
    common: null,
    _D: '',
  });
  const until = knock.revive?.at ?? endsAt;
  const tick = profile.damageTickMs > 0 ? profile.damageTickMs : until - knock.at;
  for (let at = knock.at + tick; at < until; at += tick)
    t.emit(at, {
      _T: 'LogPlayerTakeDamage',
      attackId: -1,
      attacker: null,
      victim: t.character(knock.victim, at),
      damageTypeCategory: 'Damage_Groggy',
      damageReason: 'None',
      damage: quarter(tick / 300),
      damageCauserName: '',
      isThroughPenetrableWall: false,
      common: null,
      _D: '',
    });
  if (!knock.revive) return;
  const { reviver } = knock.revive;
  const revivedAt = knock.revive.at;
  if (showcase || random.chance(0.35)) {
    const start = Math.round(knock.at + (revivedAt - knock.at) * 0.2);
    const stop = Math.round(knock.at + (revivedAt - knock.at) * 0.7);
    carry(t, reviver, start, 'BodyCarry_Start_Carrier');
    carry(t, knock.victim, start, 'BodyCarry_Start_Carried');
    carry(t, reviver, stop, 'BodyCarry_End_Carrier');
    carry(t, knock.victim, stop, 'BodyCarry_End_Carried');
  }
  t.emit(revivedAt, {
    _T: 'LogPlayerRevive',
    reviver: t.character(reviver, revivedAt, {
      location: world.offset(world.position(knock.victim, revivedAt), 1, random),
    }),
    victim: t.character(knock.victim, revivedAt, { health: 10 }),
    dBNOId: knock.dBNOId,
    common: null,
    _D: '',
  });
}

function carry(t: TelemetryWriter, i: number, at: number, carryState: string): void {
  t.emit(at, {
    _T: 'LogCharacterCarry',
    character: t.character(i, at),
    carryState,
    common: null,
    _D: '',
  });
}
