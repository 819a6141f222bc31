/**
 * The event kinds a generated match carries, by mode: what every match has, what a battle royale
 * adds (and team modes, maps with red zones or Karakin's black zone, play with flare guns,
 * tournaments), as real matches of the kind do.
 */
import assert from 'node:assert/strict';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import { demoMap } from '../../src/demo/maps.ts';

const EVERY_MATCH = [
  'LogMatchDefinition',
  'LogPlayerCreate',
  'LogMatchStart',
  'LogMatchEnd',
  'LogPlayerPosition',
  'LogGameStatePeriodic',
  'LogPlayerAttack',
  'LogPlayerTakeDamage',
  'LogPlayerKillV2',
  'LogObjectInteraction',
  'LogVaultStart',
  'LogObjectDestroy',
  'LogPlayerDestroyProp',
];
const BATTLE_ROYALE = [
  'LogPhaseChange',
  'LogParachuteLanding',
  'LogItemPickup',
  'LogItemEquip',
  'LogItemUnequip',
  'LogItemDrop',
  'LogItemAttach',
  'LogItemDetach',
  'LogItemUse',
  'LogHeal',
  'LogItemPickupFromLootBox',
  'LogCarePackageSpawn',
  'LogCarePackageLand',
  'LogItemPickupFromCarepackage',
  'LogPlayerUseThrowable',
  'LogArmorDestroy',
  'LogWeaponFireCount',
  'LogVehicleRide',
  'LogVehicleLeave',
  'LogVehicleDamage',
  'LogWheelDestroy',
  'LogVehicleDestroy',
  'LogSwimStart',
  'LogSwimEnd',
  'LogItemPutToVehicleTrunk',
  'LogItemPickupFromVehicleTrunk',
  'LogPlayerLogout',
  'LogPlayerLogin',
];
const TEAMS = ['LogPlayerMakeGroggy', 'LogPlayerRevive', 'LogCharacterCarry'];

/** Kinds a match of this mode, map and type must carry (lobbies of 48 and more). */
export function expectedKinds(match: MatchInput): string[] {
  if (match.gameMode === 'tdm') return EVERY_MATCH;
  const kinds = [...EVERY_MATCH, ...BATTLE_ROYALE];
  if (!match.gameMode.includes('solo')) kinds.push(...TEAMS);
  const hazards =
    match.matchType !== 'competitive' &&
    !match.tournamentId &&
    !match.gameMode.startsWith('esports-');
  if (hazards) {
    kinds.push('LogPlayerUseFlareGun');
    kinds.push(demoMap(match.mapName).hazard === 'red' ? 'LogRedZoneEnded' : 'LogBlackZoneEnded');
  }
  if (match.tournamentId) kinds.push('LogPlayerKill');
  return kinds;
}

/** Kinds no match of this sort may carry. */
function forbiddenKinds(match: MatchInput): string[] {
  const forbidden: string[] = [];
  const hazards =
    match.matchType !== 'competitive' &&
    !match.tournamentId &&
    !match.gameMode.startsWith('esports-');
  if (!hazards) forbidden.push('LogRedZoneEnded', 'LogBlackZoneEnded', 'LogPlayerUseFlareGun');
  if (match.gameMode.includes('solo')) forbidden.push(...TEAMS);
  if (!match.tournamentId) forbidden.push('LogPlayerKill');
  return forbidden;
}

export function assertEventKinds(match: MatchInput): void {
  const present = new Set((match.telemetry ?? []).map((e) => e._T));
  const players = match.rosters.reduce((n, r) => n + r.participants.length, 0);
  if (players >= 48 || match.gameMode === 'tdm')
    for (const kind of expectedKinds(match))
      assert.ok(
        present.has(kind),
        `${match.mapName} ${match.matchType} ${match.gameMode}: ${kind}`,
      );
  for (const kind of forbiddenKinds(match))
    assert.ok(!present.has(kind), `${match.matchType} ${match.gameMode}: no ${kind}`);
}
