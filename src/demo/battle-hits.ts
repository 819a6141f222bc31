/**
 * The damage of a battle: every hit one fighter makes on another, kept in one list that both
 * the participants' `damageDealt` (its sum over hits on other teams) and the telemetry's
 * LogPlayerTakeDamage events are made from — which is why they always agree.
 */
import {
  alive,
  hitMetres,
  nextAttackId,
  pickOpponent,
  type Fighter,
  type Hit,
} from './fighters.ts';
import type { Random } from './random.ts';
import { CRATE_WEAPONS, RAMMING, WEAPONS, WEAPON_CLASSES, type Weapon } from './weapons.ts';

/** A damage figure as the game reports it, rounded to a quarter HP so that sums stay exact. */
export const hp = (x: number): number => Math.round(x * 4) / 4;

const CLASS_WEIGHTS = WEAPONS.map(
  (w) => WEAPON_CLASSES[w.weaponClass].weight * (CRATE_WEAPONS.has(w.itemId) ? 0.2 : 1),
);

const byTime = (a: Hit, b: Hit): number => a.at - b.at;

function pickWeapon(random: Random, f: Fighter): Weapon {
  return random.chance(0.82)
    ? random.pick(f.loadout)
    : WEAPONS[random.weightedIndex(CLASS_WEIGHTS)]!;
}

/** The hits of one battle, with the attackers' damage kept up to date. */
export class HitBook {
  readonly hits: Hit[] = [];

  constructor(private readonly fighters: readonly Fighter[]) {}

  /** A hit of `attacker` on `victim` at `at` with a weapon of the attacker's, `damage` HP. */
  strike(random: Random, attacker: Fighter, victim: Fighter, at: number, damage: number): Hit {
    const weapon = pickWeapon(random, attacker);
    const gun = weapon.damageTypeCategory === 'Damage_Gun';
    const pHead = Math.min(
      0.45,
      Math.max(0.03, 0.13 + 0.06 * attacker.skill + (weapon.weaponClass === 'sr' ? 0.15 : 0)),
    );
    return this.add({
      at,
      attacker: attacker.index,
      victim: victim.index,
      weapon,
      vehicleId: null,
      metres: hitMetres(random, weapon),
      headshot: gun && random.chance(pHead),
      damage: hp(damage),
      attackId: nextAttackId(attacker),
    });
  }

  /** A fighter run over by `driver` in `vehicleId`. */
  ram(random: Random, driver: Fighter, victim: Fighter, at: number, vehicleId: string): Hit {
    return this.add({
      at,
      attacker: driver.index,
      victim: victim.index,
      weapon: RAMMING,
      vehicleId,
      metres: hitMetres(random, RAMMING),
      headshot: false,
      damage: hp(random.float(60, 100)),
      attackId: nextAttackId(driver),
    });
  }

  /** Records a hit made elsewhere (team deathmatch makes its own). */
  add(hit: Hit): Hit {
    this.hits.push(hit);
    const attacker = this.fighters[hit.attacker]!;
    if (attacker.roster !== this.fighters[hit.victim]!.roster) attacker.damage += hit.damage;
    return hit;
  }

  /**
   * Wounds that neither knocked nor killed: most fighters who lived a while landed a few shots
   * on someone of another team who was alive then.
   */
  addWounds(random: Random, durationMs: number): void {
    for (const f of this.fighters) {
      const aliveSeconds = ((f.diedAt ?? durationMs) - f.landedAt) / 1000;
      if (aliveSeconds < 30 || !random.chance(0.45 + 0.35 * Math.min(1, aliveSeconds / 900)))
        continue;
      let total =
        random.next() * (40 + 180 * Math.min(1, aliveSeconds / 1200)) * Math.exp(0.25 * f.skill);
      const pieces = 1 + Math.min(3, Math.floor(total / 45));
      for (let p = 0; p < pieces && total >= 1; p++) {
        const damage = p === pieces - 1 ? total : total * random.float(0.3, 0.7);
        const at = Math.round(f.landedAt + 3_000 + random.next() * (aliveSeconds - 4) * 1000);
        const victim = alive(f, at)
          ? pickOpponent(random, this.fighters, { roster: f.roster, at, weight: 'even' })
          : null;
        if (!victim) continue;
        this.strike(random, f, victim, at, Math.max(1, damage));
        total -= damage;
      }
    }
  }

  /** The hits in time order (ties: the order they were made). */
  sorted(): Hit[] {
    // A stable sort: hits at the same instant keep the order they were made in.
    return this.hits.slice().sort(byTime);
  }
}
