/**
 * Per-weapon figures of a match as the shots are told: rounds fired (a LogWeaponFireCount every
 * ten), shots that hit, damage to standing and to knocked players, hits, knocks and kills per
 * body part — the `allWeaponStats` of LogMatchEnd, which therefore agree with the events.
 */
import type { Hit } from './fighters.ts';
import type { Random } from './random.ts';
import type { Fields, TelemetryWriter } from './telemetry-writer.ts';

const BODY: ReadonlyArray<readonly [string, number]> = [
  ['TorsoShot', 6],
  ['ArmShot', 2],
  ['LegShot', 2],
  ['PelvisShot', 1],
];

/** `damageReason` of a hit: the head, or somewhere else (the torso most often). */
export const bodyPart = (random: Random, headshot: boolean): string =>
  headshot ? 'HeadShot' : random.weighted(BODY);

interface WeaponFigures {
  weapon: string;
  damage: number;
  dBNODamage: number;
  shots: number;
  hits: number;
  dBNOHits: number;
  firstAt: number;
  parts: Map<string, { kills: number; dBNOs: number; hits: number }>;
}

export class WeaponTally {
  private readonly byFighter = new Map<number, Map<string, WeaponFigures>>();

  /**
   * One shot that hit, after `rounds` fired (the misses before it included); `outcome` when it
   * knocked or killed.
   */
  shot(
    t: TelemetryWriter,
    hit: Hit,
    itemId: string,
    at: number,
    damage: number,
    reason: string,
    rounds: number,
    outcome: 'knock' | 'kill' | null,
  ): void {
    if (itemId === '') return;
    let weapons = this.byFighter.get(hit.attacker);
    if (!weapons) this.byFighter.set(hit.attacker, (weapons = new Map()));
    let w = weapons.get(itemId);
    if (!w) {
      w = {
        weapon: itemId,
        damage: 0,
        dBNODamage: 0,
        shots: 0,
        hits: 0,
        dBNOHits: 0,
        firstAt: at,
        parts: new Map(),
      };
      weapons.set(itemId, w);
    }
    const before = w.shots;
    w.shots += rounds;
    w.hits++;
    const knocked = t.world.vitals.isKnocked(hit.victim, at);
    if (knocked) {
      w.dBNODamage += damage;
      w.dBNOHits++;
    } else w.damage += damage;
    let part = w.parts.get(reason);
    if (!part) w.parts.set(reason, (part = { kills: 0, dBNOs: 0, hits: 0 }));
    part.hits++;
    if (outcome === 'kill') part.kills++;
    if (outcome === 'knock') part.dBNOs++;
    if (hit.weapon.damageTypeCategory !== 'Damage_Gun') return;
    for (let count = Math.ceil((before + 1) / 10) * 10; count <= w.shots; count += 10)
      t.emit(at, {
        _T: 'LogWeaponFireCount',
        character: t.character(hit.attacker, at),
        weaponId: itemId,
        fireCount: count,
        common: null,
        _D: '',
      });
  }

  /** `LogMatchEnd.allWeaponStats`: per account, the weapons they hit someone with. */
  allWeaponStats(t: TelemetryWriter): Fields {
    const out: Fields = {};
    for (const [i, weapons] of this.byFighter) {
      const f = t.fighters[i]!;
      const end = f.diedAt ?? t.input.battle.durationMs;
      out[f.playerId] = [...weapons.values()].map((w) => ({
        weapon: w.weapon,
        damage: w.damage,
        dBNODamage: w.dBNODamage,
        shots: w.shots,
        hits: w.hits,
        dBNOHits: w.dBNOHits,
        holdingTime: Math.max(1, Math.round((end - w.firstAt) / 1000 / weapons.size)),
        hitDetails: [...w.parts].map(([bodyPart, p]) => ({ bodyPart, ...p })),
      }));
    }
    return out;
  }
}
