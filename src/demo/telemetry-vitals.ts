/**
 * Everyone's health over a match, as the `Character.health` and `isDBNO` of events show it:
 * wounds that heal away over two minutes, a bar draining while knocked, 0 once dead.
 */
import type { Battle } from './fighters.ts';
import { quarter } from './telemetry-world.ts';

/** Milliseconds a wound takes to be healed away. */
const WOUND_MS = 120_000;

export class Vitals {
  private readonly wounds: Array<Array<{ at: number; damage: number }>>;
  private readonly knocked: Array<Array<{ from: number; to: number }>>;

  constructor(private readonly battle: Battle) {
    const { fighters } = battle;
    this.wounds = fighters.map(() => []);
    for (const hit of battle.hits) this.wounds[hit.victim]!.push(hit);
    this.knocked = fighters.map(() => []);
    const endOf = new Map(battle.deaths.filter((d) => d.knock).map((d) => [d.knock!, d.at]));
    for (const k of battle.knocks)
      this.knocked[k.victim]!.push({ from: k.at, to: k.revive?.at ?? endOf.get(k) ?? k.at });
  }

  /** Health at `at`: 0 dead, a draining bar while knocked, wounds healing off otherwise. */
  health(i: number, at: number): number {
    const f = this.battle.fighters[i]!;
    if (f.diedAt !== null && f.diedAt <= at) return 0;
    for (const k of this.knocked[i]!)
      if (k.from <= at && at < k.to) return quarter(Math.max(1, 100 - (at - k.from) / 300));
    let health = 100;
    for (const w of this.wounds[i]!) {
      if (w.at > at) break;
      if (at - w.at < WOUND_MS) health -= w.damage * (1 - (at - w.at) / WOUND_MS);
    }
    return quarter(Math.max(1, Math.min(100, health)));
  }

  isKnocked(i: number, at: number): boolean {
    for (const k of this.knocked[i]!) if (k.from <= at && at < k.to) return true;
    return false;
  }
}
