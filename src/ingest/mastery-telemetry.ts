/**
 * The one pass over a match's parsed telemetry that mastery needs: per tracked player, what each
 * weapon did and the survival values only telemetry knows; for the match, its defeats (for
 * medals) and first landings (for hot drops). Events are read as the real service writes them
 * (ENUMS §10); fields of an unexpected type count as absent, so odd recordings never fail an
 * ingest. Per event the work is a switch on `_T`; most events (positions, vehicles …) stop there.
 */
import type { Landing } from '../domain/hot-drops.ts';
import { weaponItemId } from '../domain/weapon-items.ts';
import {
  LONG_RANGE_DEFEAT_METRES,
  emptyWeaponGame,
  type WeaponGame,
} from '../domain/weapon-mastery.ts';
import type { Defeat } from '../domain/weapon-medals.ts';

/** What one player did in the telemetry of a match. HP, counts; items and crates as sets. */
export interface PlayerTelemetry {
  weapons: Map<string, WeaponGame>;
  healed: number;
  revived: number;
  damageTaken: number;
  airDropsCalled: number;
  throwablesThrown: number;
  /** Creators (account ids) of other teams' death crates the player looted from. */
  crates: Set<string>;
  /** Item ids the player picked up. */
  items: Set<string>;
}

export interface MatchTelemetry {
  /** Every tracked player, whether or not the telemetry mentions them. */
  players: Map<string, PlayerTelemetry>;
  /** Every defeat by someone with an account (bots too), in event order. */
  defeats: Defeat[];
  /** Each character's first landing. */
  landings: Landing[];
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | null =>
  typeof value === 'object' && value !== null ? (value as Json) : null;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const number = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const accountOf = (character: Json | null): string => text(character?.accountId);
/** NaN when absent, so two characters without a team never count as teammates. */
const teamOf = (character: Json | null): number =>
  typeof character?.teamId === 'number' ? character.teamId : NaN;
/** DamageInfo and kill distances are centimetres; -1 means none. */
const metresOf = (centimetres: unknown): number => Math.max(0, number(centimetres)) / 100;

/** Reads a match's events once for the players in `tracked` (account ids of counted humans). */
export function tallyMatchTelemetry(
  events: readonly unknown[],
  tracked: Iterable<string>,
): MatchTelemetry {
  const players = new Map<string, PlayerTelemetry>();
  for (const accountId of tracked) players.set(accountId, emptyPlayerTelemetry());
  const defeats: Defeat[] = [];
  const landings: Landing[] = [];
  const landed = new Set<string>();
  /** `<victim>\n<attacker>` for every tracked victim's attacker: who hurt whom (Assassin). */
  const hurt = new Set<string>();
  const killsV1: Json[] = [];
  let seenKillV2 = false;
  const items = new Map<string, string | null>();
  const itemOf = (info: Json | null): string | null => {
    const causer = text(info?.damageCauserName);
    let item = items.get(causer);
    if (item === undefined) items.set(causer, (item = weaponItemId(causer)));
    return item;
  };
  const gameOf = (player: PlayerTelemetry, weaponId: string): WeaponGame => {
    let game = player.weapons.get(weaponId);
    if (game === undefined) player.weapons.set(weaponId, (game = emptyWeaponGame()));
    return game;
  };
  /** The credited player, unless they are the victim or the victim's teammate. */
  const enemyOf = (who: Json | null, victim: Json | null): string => {
    const id = accountOf(who);
    return id !== '' && id !== accountOf(victim) && teamOf(who) !== teamOf(victim) ? id : '';
  };

  const creditKill = (killer: Json | null, info: Json | null, victim: Json | null): void => {
    const player = players.get(enemyOf(killer, victim));
    const weaponId = player && itemOf(info);
    if (!player || !weaponId) return;
    const game = gameOf(player, weaponId);
    game.kills++;
    game.longestKill = Math.max(game.longestKill, metresOf(info?.distance));
  };
  const creditDefeat = (e: Json, by: Json | null, info: Json | null, victim: Json | null): void => {
    const accountId = enemyOf(by, victim);
    const weaponId = accountId && itemOf(info);
    if (!weaponId) return;
    const metres = metresOf(info?.distance);
    const headShot = info?.damageReason === 'HeadShot';
    const victimId = accountOf(victim);
    const at = Date.parse(text(e._D)) || 0;
    const victimTeamId = teamOf(victim);
    defeats.push({
      at,
      accountId,
      weaponId,
      headShot,
      metres,
      victimId,
      victimTeamId,
      unhurt: true,
    });
    const player = players.get(accountId);
    if (!player) return;
    const game = gameOf(player, weaponId);
    game.defeats++;
    if (metres >= LONG_RANGE_DEFEAT_METRES) game.longRangeDefeats++;
    game.longestDefeat = Math.max(game.longestDefeat, metres);
  };

  for (const event of events) {
    const e = object(event);
    if (e === null) continue;
    switch (e._T) {
      case 'LogPlayerTakeDamage': {
        const attacker = object(e.attacker);
        const victim = object(e.victim);
        const victimId = accountOf(victim);
        const damage = number(e.damage);
        const hurtPlayer = players.get(victimId);
        if (hurtPlayer) {
          hurtPlayer.damageTaken += damage;
          const attackerId = accountOf(attacker);
          if (attackerId !== '' && attackerId !== victimId) hurt.add(`${victimId}\n${attackerId}`);
        }
        const player = victimId === '' ? undefined : players.get(enemyOf(attacker, victim));
        const weaponId = player && itemOf(e);
        if (!player || !weaponId) break;
        const game = gameOf(player, weaponId);
        game.damagePlayer += damage;
        if (e.damageReason === 'HeadShot') game.headShots++;
        break;
      }
      case 'LogPlayerMakeGroggy': {
        const player = players.get(enemyOf(object(e.attacker), object(e.victim)));
        const weaponId = player && itemOf(e);
        if (player && weaponId) gameOf(player, weaponId).groggies++;
        break;
      }
      case 'LogPlayerKillV2': {
        seenKillV2 = true;
        if (e.isSuicide === true) break;
        const victim = object(e.victim);
        creditKill(object(e.killer), object(e.killerDamageInfo), victim);
        const finisher = object(e.finisher);
        if (accountOf(finisher) !== '')
          creditDefeat(e, finisher, object(e.finishDamageInfo), victim);
        else creditDefeat(e, object(e.dBNOMaker), object(e.dBNODamageInfo), victim);
        break;
      }
      case 'LogPlayerKill':
        // Older telemetry's kill event; files that also have LogPlayerKillV2 tell each death twice.
        killsV1.push(e);
        break;
      case 'LogHeal': {
        const player = players.get(accountOf(object(e.character)));
        if (player) player.healed += number(e.healAmount);
        break;
      }
      case 'LogPlayerRevive': {
        const player = players.get(accountOf(object(e.victim)));
        if (player) player.revived++;
        break;
      }
      case 'LogPlayerUseFlareGun': {
        const player = players.get(accountOf(object(e.attacker)));
        if (player) player.airDropsCalled++;
        break;
      }
      case 'LogPlayerUseThrowable': {
        const player = players.get(accountOf(object(e.attacker)));
        if (player) player.throwablesThrown++;
        break;
      }
      case 'LogItemPickupFromLootBox': {
        const character = object(e.character);
        const player = players.get(accountOf(character));
        if (!player) break;
        pickUp(player, e);
        if (typeof e.ownerTeamId === 'number' && e.ownerTeamId !== teamOf(character))
          player.crates.add(text(e.creatorAccountId) || `team ${e.ownerTeamId}`);
        break;
      }
      case 'LogParachuteLanding': {
        const character = object(e.character);
        const accountId = accountOf(character);
        if (accountId === '' || landed.has(accountId)) break;
        landed.add(accountId);
        const location = object(character?.location);
        const x = number(location?.x);
        const y = number(location?.y);
        landings.push({ accountId, teamId: teamOf(character), x, y });
        break;
      }
      case 'LogItemPickup':
      case 'LogItemPickupFromCarepackage':
      case 'LogItemPickupFromVehicleTrunk':
      case 'LogItemPickupFromCustomPackage': {
        const player = players.get(accountOf(object(e.character)));
        if (player) pickUp(player, e);
        break;
      }
    }
  }
  if (!seenKillV2) {
    // The killer is credited with both the kill and the defeat; the event is its DamageInfo.
    for (const e of killsV1) {
      const killer = object(e.killer);
      const victim = object(e.victim);
      creditKill(killer, e, victim);
      creditDefeat(e, killer, e, victim);
    }
  }
  for (const defeat of defeats)
    defeat.unhurt = !hurt.has(`${defeat.accountId}\n${defeat.victimId}`);
  return { players, defeats, landings };
}

function pickUp(player: PlayerTelemetry, event: Json): void {
  const itemId = text(object(event.item)?.itemId);
  if (itemId !== '') player.items.add(itemId);
}

function emptyPlayerTelemetry(): PlayerTelemetry {
  return {
    weapons: new Map(),
    healed: 0,
    revived: 0,
    damageTaken: 0,
    airDropsCalled: 0,
    throwablesThrown: 0,
    crates: new Set(),
    items: new Set(),
  };
}
