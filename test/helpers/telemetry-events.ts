/**
 * Hand-built telemetry events in the real service's format (ENUMS §8–§10: characters,
 * DamageInfo objects, centimetre distances, `_D` with milliseconds), for tests that need a few
 * exact events rather than a generated match.
 */
import type { TelemetryEventInput } from '../../src/ingest/match-input.ts';

type Fields = Record<string, unknown>;

/** A participant as telemetry names them; x and y in centimetres. */
export interface Who {
  accountId: string;
  teamId: number;
  x?: number;
  y?: number;
}

export function character(who: Who): Fields {
  return {
    name: who.accountId.slice(-6),
    teamId: who.teamId,
    health: 100,
    location: { x: who.x ?? 0, y: who.y ?? 0, z: 0 },
    ranking: 0,
    individualRanking: 0,
    accountId: who.accountId,
    isInBlueZone: false,
    isInRedZone: false,
    zone: [],
    type: 'user',
    isDBNO: false,
  };
}

/** A DamageInfo of LogPlayerKillV2; `metres` is converted to the wire's centimetres. */
export function damageInfo(causer: string, metres: number, reason = 'TorsoShot'): Fields {
  return {
    damageReason: reason,
    damageTypeCategory: 'Damage_Gun',
    damageCauserName: causer,
    additionalInfo: [],
    distance: metres * 100,
    isThroughPenetrableWall: false,
  };
}

const NO_DAMAGE = {
  damageReason: '',
  damageTypeCategory: '',
  damageCauserName: '',
  additionalInfo: [],
  distance: -1,
  isThroughPenetrableWall: false,
};

/** Builds events of a match starting at `start` (epoch ms); times are seconds after it. */
export function telemetryAt(start: number) {
  const event = (seconds: number, fields: Fields & { _T: string }): TelemetryEventInput =>
    ({
      ...fields,
      common: { isGame: 1 },
      _D: new Date(start + seconds * 1000).toISOString(),
    }) as TelemetryEventInput;
  return {
    damage: (
      s: number,
      attacker: Who | null,
      victim: Who,
      causer: string,
      damage: number,
      reason = 'TorsoShot',
    ) =>
      event(s, {
        _T: 'LogPlayerTakeDamage',
        attackId: attacker ? 1 : -1,
        attacker: attacker && character(attacker),
        victim: character(victim),
        damageTypeCategory: attacker ? 'Damage_Gun' : 'Damage_BlueZone',
        damageReason: reason,
        damage,
        damageCauserName: causer,
        isThroughPenetrableWall: false,
      }),
    groggy: (s: number, attacker: Who, victim: Who, causer: string, metres: number) =>
      event(s, {
        _T: 'LogPlayerMakeGroggy',
        attackId: 2,
        attacker: character(attacker),
        victim: character(victim),
        damageReason: 'TorsoShot',
        damageTypeCategory: 'Damage_Gun',
        damageCauserName: causer,
        damageCauserAdditionalInfo: [],
        victimWeapon: 'WeapM9_C',
        victimWeaponAdditionalInfo: [],
        distance: metres * 100,
        isAttackerInVehicle: false,
        dBNOId: 7,
        isThroughPenetrableWall: false,
      }),
    /** LogPlayerKillV2; a null DamageInfo is the real service's empty one. */
    kill: (
      s: number,
      victim: Who,
      parts: {
        killer?: [Who, Fields];
        finisher?: [Who, Fields];
        knocker?: [Who, Fields];
        teamKill?: boolean;
      },
    ) =>
      event(s, {
        _T: 'LogPlayerKillV2',
        attackId: 3,
        dBNOId: parts.knocker ? 7 : -1,
        victimGameResult: {
          rank: 0,
          gameResult: '',
          teamId: victim.teamId,
          stats: {},
          accountId: victim.accountId,
        },
        victim: character(victim),
        victimWeapon: 'WeapM9_C',
        victimWeaponAdditionalInfo: [],
        dBNOMaker: parts.knocker ? character(parts.knocker[0]) : null,
        dBNODamageInfo: parts.knocker?.[1] ?? NO_DAMAGE,
        finisher: parts.finisher ? character(parts.finisher[0]) : null,
        finishDamageInfo: parts.finisher?.[1] ?? NO_DAMAGE,
        killer: parts.killer ? character(parts.killer[0]) : null,
        killerDamageInfo: parts.killer?.[1] ?? NO_DAMAGE,
        assists_AccountId: [],
        teamKillers_AccountId: parts.teamKill && parts.killer ? [parts.killer[0].accountId] : [],
        isSuicide: false,
      }),
    heal: (s: number, who: Who, amount: number) =>
      event(s, {
        _T: 'LogHeal',
        character: character(who),
        item: {
          itemId: 'Item_Heal_FirstAid_C',
          stackCount: 1,
          category: 'Use',
          subCategory: 'Heal',
          attachedItems: [],
        },
        healAmount: amount,
      }),
    revive: (s: number, reviver: Who, victim: Who) =>
      event(s, {
        _T: 'LogPlayerRevive',
        reviver: character(reviver),
        victim: character(victim),
        dBNOId: 7,
      }),
    use: (
      s: number,
      kind: 'LogPlayerUseThrowable' | 'LogPlayerUseFlareGun',
      who: Who,
      itemId: string,
    ) =>
      event(s, {
        _T: kind,
        attackId: 4,
        fireWeaponStackCount: 1,
        attacker: character(who),
        attackType: 'Weapon',
        weapon: {
          itemId,
          stackCount: 1,
          category: 'Weapon',
          subCategory: 'Throwable',
          attachedItems: [],
        },
      }),
    pickup: (s: number, who: Who, itemId: string) =>
      event(s, {
        _T: 'LogItemPickup',
        character: character(who),
        item: { itemId, stackCount: 1, category: 'Use', subCategory: 'None', attachedItems: [] },
      }),
    lootBox: (s: number, who: Who, itemId: string, owner: Who) =>
      event(s, {
        _T: 'LogItemPickupFromLootBox',
        character: character(who),
        item: {
          itemId,
          stackCount: 30,
          category: 'Ammunition',
          subCategory: 'None',
          attachedItems: [],
        },
        ownerTeamId: owner.teamId,
        creatorAccountId: owner.accountId,
      }),
    landing: (s: number, who: Who) =>
      event(s, { _T: 'LogParachuteLanding', character: character(who), distance: 0 }),
    position: (s: number, who: Who) =>
      event(s, {
        _T: 'LogPlayerPosition',
        character: character(who),
        vehicle: null,
        elapsedTime: s,
        numAlivePlayers: 4,
      }),
  };
}
