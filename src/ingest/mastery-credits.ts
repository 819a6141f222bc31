/**
 * The weapon credit rules of weapon mastery (src/domain/weapon-mastery.ts says what each stat
 * means), applied to telemetry events as they come: who gets the kill, the defeat, the knock and
 * the damage, with which weapon and from how far. Also the field readers of the telemetry pass:
 * fields of an unexpected type read as absent, so odd recordings never fail an ingest.
 */
import type { Landing } from '../domain/hot-drops.ts';
import { weaponItemId } from '../domain/weapon-items.ts';
import {
  LONG_RANGE_DEFEAT_METRES,
  emptyWeaponGame,
  type WeaponGame,
} from '../domain/weapon-mastery.ts';
import type { Defeat } from '../domain/weapon-medals.ts';

export type Json = Record<string, unknown>;
export const object = (value: unknown): Json | null =>
  typeof value === 'object' && value !== null ? (value as Json) : null;
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
export const number = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
export const accountOf = (character: Json | null): string => text(character?.accountId);
/** NaN when absent, so two characters without a team never count as teammates. */
export const teamOf = (character: Json | null): number =>
  typeof character?.teamId === 'number' ? character.teamId : NaN;
/** DamageInfo and kill distances are centimetres; -1 means none. */
const metresOf = (centimetres: unknown): number => Math.max(0, number(centimetres)) / 100;

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

/** The running tally of one pass. */
export class WeaponCredits {
  readonly players = new Map<string, PlayerTelemetry>();
  readonly defeats: Defeat[] = [];
  /** `<victim>\n<attacker>` for every tracked victim's attacker: who hurt whom (Assassin). */
  private readonly hurt = new Set<string>();

  constructor(tracked: Iterable<string>) {
    for (const accountId of tracked) this.players.set(accountId, emptyPlayerTelemetry());
  }

  /** LogPlayerTakeDamage: damage taken by a tracked victim, damage and headshots of a weapon. */
  damage(e: Json): void {
    const attacker = object(e.attacker);
    const victim = object(e.victim);
    const victimId = accountOf(victim);
    const damage = number(e.damage);
    const hurtPlayer = this.players.get(victimId);
    if (hurtPlayer) {
      hurtPlayer.damageTaken += damage;
      const attackerId = accountOf(attacker);
      if (attackerId !== '' && attackerId !== victimId) this.hurt.add(`${victimId}\n${attackerId}`);
    }
    const game = victimId === '' ? undefined : this.gameOf(attacker, e, victim);
    if (!game) return;
    game.damagePlayer += damage;
    if (e.damageReason === 'HeadShot') game.headShots++;
  }

  /** LogPlayerMakeGroggy. */
  knock(e: Json): void {
    const game = this.gameOf(object(e.attacker), e, object(e.victim));
    if (game) game.groggies++;
  }

  kill(killer: Json | null, info: Json | null, victim: Json | null): void {
    const game = this.gameOf(killer, info, victim);
    if (!game) return;
    game.kills++;
    game.longestKill = Math.max(game.longestKill, metresOf(info?.distance));
  }

  /** A defeat of `victim` by `by` with the weapon of `info`, at the time of event `e`. */
  defeat(e: Json, by: Json | null, info: Json | null, victim: Json | null): void {
    const accountId = this.enemyOf(by, victim);
    const weaponId = accountId && this.itemOf(info);
    if (!weaponId) return;
    const metres = metresOf(info?.distance);
    this.defeats.push({
      at: Date.parse(text(e._D)) || 0,
      accountId,
      weaponId,
      headShot: info?.damageReason === 'HeadShot',
      metres,
      victimId: accountOf(victim),
      victimTeamId: teamOf(victim),
      unhurt: true,
    });
    const game = this.gameOf(by, info, victim);
    if (!game) return;
    game.defeats++;
    if (metres >= LONG_RANGE_DEFEAT_METRES) game.longRangeDefeats++;
    game.longestDefeat = Math.max(game.longestDefeat, metres);
  }

  /** The tally, each defeat told whether its victim had hurt the defeater. */
  result(landings: Landing[]): MatchTelemetry {
    for (const defeat of this.defeats)
      defeat.unhurt = !this.hurt.has(`${defeat.accountId}\n${defeat.victimId}`);
    return { players: this.players, defeats: this.defeats, landings };
  }

  /** The tracked player's game of the weapon, unless the hit is on themselves or a teammate. */
  private gameOf(who: Json | null, info: Json | null, victim: Json | null): WeaponGame | undefined {
    const player = this.players.get(this.enemyOf(who, victim));
    const weaponId = player && this.itemOf(info);
    if (!player || !weaponId) return undefined;
    let game = player.weapons.get(weaponId);
    if (game === undefined) player.weapons.set(weaponId, (game = emptyWeaponGame()));
    return game;
  }

  private enemyOf(who: Json | null, victim: Json | null): string {
    const id = accountOf(who);
    return id !== '' && id !== accountOf(victim) && teamOf(who) !== teamOf(victim) ? id : '';
  }

  private itemOf(info: Json | null): string | null {
    return weaponItemId(text(info?.damageCauserName));
  }
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
