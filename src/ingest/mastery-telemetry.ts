/**
 * The one pass over a match's parsed telemetry that mastery needs: per tracked player, what each
 * weapon did (the credit rules: mastery-credits.ts) and the survival values only telemetry
 * knows; for the match, its defeats (for medals) and first landings (for hot drops). Events are
 * read as the real service writes them (ENUMS §10). Per event the work is a switch on `_T`; most
 * events (positions, vehicles …) stop there.
 */
import type { Landing } from '../domain/hot-drops.ts';
import {
  WeaponCredits,
  accountOf,
  number,
  object,
  teamOf,
  text,
  type Json,
  type MatchTelemetry,
  type PlayerTelemetry,
} from './mastery-credits.ts';

export type { MatchTelemetry, PlayerTelemetry };

/**
 * The event types the tally reads (the cases of its switch): all a match's events of other
 * types can be left out of what it is given, unparsed (telemetry-scan.ts) or not kept as objects
 * (the demo's telemetry sinks), with the same result.
 */
export const TALLIED_EVENT_TYPES: ReadonlySet<string> = new Set([
  'LogPlayerTakeDamage',
  'LogPlayerMakeGroggy',
  'LogPlayerKillV2',
  'LogPlayerKill',
  'LogHeal',
  'LogPlayerRevive',
  'LogPlayerUseFlareGun',
  'LogPlayerUseThrowable',
  'LogItemPickup',
  'LogItemPickupFromLootBox',
  'LogItemPickupFromCarepackage',
  'LogItemPickupFromVehicleTrunk',
  'LogItemPickupFromCustomPackage',
  'LogParachuteLanding',
]);

/** Reads a match's events once for the players in `tracked` (account ids of counted humans). */
export function tallyMatchTelemetry(
  events: readonly unknown[],
  tracked: Iterable<string>,
): MatchTelemetry {
  const credits = new WeaponCredits(tracked);
  const players = credits.players;
  const landings: Landing[] = [];
  const landed = new Set<string>();
  const killsV1: Json[] = [];
  let seenKillV2 = false;

  for (const event of events) {
    const e = object(event);
    if (e === null) continue;
    switch (e._T) {
      case 'LogPlayerTakeDamage':
        credits.damage(e);
        break;
      case 'LogPlayerMakeGroggy':
        credits.knock(e);
        break;
      case 'LogPlayerKillV2': {
        seenKillV2 = true;
        if (e.isSuicide === true) break;
        const victim = object(e.victim);
        credits.kill(object(e.killer), object(e.killerDamageInfo), victim);
        const finisher = object(e.finisher);
        if (accountOf(finisher) !== '')
          credits.defeat(e, finisher, object(e.finishDamageInfo), victim);
        else credits.defeat(e, object(e.dBNOMaker), object(e.dBNODamageInfo), victim);
        break;
      }
      case 'LogPlayerKill':
        // Older telemetry's kill event; files that also have LogPlayerKillV2 tell each death twice.
        killsV1.push(e);
        break;
      case 'LogHeal': {
        const player = playerOf(players, e.character);
        if (player) player.healed += number(e.healAmount);
        break;
      }
      case 'LogPlayerRevive': {
        const player = playerOf(players, e.victim);
        if (player) player.revived++;
        break;
      }
      case 'LogPlayerUseFlareGun': {
        const player = playerOf(players, e.attacker);
        if (player) player.airDropsCalled++;
        break;
      }
      case 'LogPlayerUseThrowable': {
        const player = playerOf(players, e.attacker);
        if (player) player.throwablesThrown++;
        break;
      }
      case 'LogItemPickupFromLootBox': {
        const player = playerOf(players, e.character);
        if (!player) break;
        pickUp(player, e);
        if (typeof e.ownerTeamId === 'number' && e.ownerTeamId !== teamOf(object(e.character)))
          player.crates.add(text(e.creatorAccountId) || `team ${e.ownerTeamId}`);
        break;
      }
      case 'LogItemPickup':
      case 'LogItemPickupFromCarepackage':
      case 'LogItemPickupFromVehicleTrunk':
      case 'LogItemPickupFromCustomPackage': {
        const player = playerOf(players, e.character);
        if (player) pickUp(player, e);
        break;
      }
      case 'LogParachuteLanding': {
        const character = object(e.character);
        const accountId = accountOf(character);
        if (accountId === '' || landed.has(accountId)) break;
        landed.add(accountId);
        const location = object(character?.location);
        landings.push({
          accountId,
          teamId: teamOf(character),
          x: number(location?.x),
          y: number(location?.y),
        });
        break;
      }
    }
  }
  if (!seenKillV2) {
    // The killer is credited with both the kill and the defeat; the event is its DamageInfo.
    for (const e of killsV1) {
      const killer = object(e.killer);
      const victim = object(e.victim);
      credits.kill(killer, e, victim);
      credits.defeat(e, killer, e, victim);
    }
  }
  return credits.result(landings);
}

function pickUp(player: PlayerTelemetry, event: Json): void {
  const itemId = text(object(event.item)?.itemId);
  if (itemId !== '') player.items.add(itemId);
}

/**
 * The tracked player a character object names. A function of the module, not a closure made
 * per match: V8 keeps a closure's optimized code only while a closure made from it is alive, so
 * it was compiled again after every full collection.
 */
function playerOf(
  players: ReadonlyMap<string, PlayerTelemetry>,
  character: unknown,
): PlayerTelemetry | undefined {
  return players.get(accountOf(object(character)));
}
