/**
 * Telemetry of what fighters use up: healing items and boosts (one LogItemUse per use, so they
 * add up to `heals` and `boosts`; LogHeal for the health they give back — in ticks in the full
 * profile), and throwables — picked up before they are thrown, every throw a
 * LogPlayerUseThrowable with its LogPlayerAttack (the throws that hurt someone are told by the
 * hits).
 */
import { BOOSTS, HEALS, NO_ITEM, item, weaponItem, type Item } from './items.ts';
import type { Random } from './random.ts';
import { quarter } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import { UTILITY_THROWABLES } from './weapons.ts';

type Supply = { item: Item; restores: number };

/** Bandages and energy drinks are the commonest, med kits and syringes the rarest. */
const HEAL_ODDS = HEALS.map((h, k) => [h, [5, 4, 1][k]!] as const);
const BOOST_ODDS = BOOSTS.map((b, k) => [b, [5, 4, 1][k]!] as const);

/** `count` instants in [from, to), in order. */
function instants(random: Random, count: number, from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    const at = Math.round(from + random.next() * (to - from));
    let j = out.length;
    while (j > 0 && out[j - 1]! > at) j--;
    out.splice(j, 0, at);
  }
  return out;
}

/** One fighter's heals, boosts and throwables. */
export function emitSupplies(t: TelemetryWriter, i: number): void {
  const { random } = t;
  const { battle, stats } = t.input;
  const f = t.fighters[i]!;
  const end = f.diedAt ?? battle.durationMs;
  const life = end - f.landedAt;
  const from = f.landedAt + Math.min(20_000, life * 0.3);
  const to = end - Math.min(2_000, life * 0.1);
  const s = stats[i]!;
  const uses: Array<{ at: number; supply: Supply; heal: boolean }> = [];
  for (const at of instants(random, s.heals, from, to))
    uses.push({
      at,
      supply: random.weighted(HEAL_ODDS),
      heal: true,
    });
  for (const at of instants(random, s.boosts, from, to))
    uses.push({
      at,
      supply: random.weighted(BOOST_ODDS),
      heal: false,
    });

  // One pickup of a stack per kind of item, before its first use.
  const stacks = new Map<Item, { first: number; count: number }>();
  for (const use of uses) {
    const stack = stacks.get(use.supply.item);
    if (stack) {
      stack.count++;
      stack.first = Math.min(stack.first, use.at);
    } else stacks.set(use.supply.item, { first: use.at, count: 1 });
  }
  for (const [it, stack] of stacks) {
    const at = Math.max(f.landedAt + 200, stack.first - random.int(3_000, 60_000));
    const pack = item(it.itemId, it.category, it.subCategory, stack.count);
    t.emit(at, {
      _T: 'LogItemPickup',
      character: t.character(i, at),
      item: pack,
      common: null,
      _D: '',
    });
  }
  for (const use of uses) {
    t.emit(use.at, {
      _T: 'LogItemUse',
      character: t.character(i, use.at),
      item: use.supply.item,
      common: null,
      _D: '',
    });
    heal(t, i, use.at, use.supply.restores, use.heal);
  }
  throwables(t, i, from, to);
}

/** LogHeal: the health given back, in one event or (full profile) in ticks. */
function heal(t: TelemetryWriter, i: number, at: number, restores: number, isHeal: boolean): void {
  const { random, profile } = t;
  if (!isHeal && !profile.healTicks) return;
  // A bandage heals in a few ticks, a kit over several; a boost keeps healing for a minute or two.
  const ticks = !profile.healTicks
    ? 1
    : isHeal
      ? Math.round(4 + restores / 15)
      : random.int(10, 20);
  const each = isHeal ? restores / ticks : random.int(1, 4);
  for (let k = 0; k < ticks; k++) {
    const when = at + 400 + k * (isHeal ? 800 : 6_000);
    const health = t.world.vitals.health(i, when);
    t.emit(when, {
      _T: 'LogHeal',
      character: t.character(i, when, { health }),
      item: NO_ITEM,
      healAmount: quarter(Math.max(0, Math.min(each, 100 - health))),
      common: null,
      _D: '',
    });
  }
}

/** Throwables: damaging ones thrown in the hits, smokes and flashbangs thrown for cover. */
function throwables(t: TelemetryWriter, i: number, from: number, to: number): void {
  const { random, profile } = t;
  const thrown = new Map<Item, number[]>();
  for (const hit of t.input.battle.hits) {
    if (hit.attacker !== i || hit.weapon.weaponClass !== 'throwable') continue;
    const it = weaponItem(hit.weapon);
    thrown.set(it, [...(thrown.get(it) ?? []), hit.at]);
  }
  const utility = profile.name === 'full' ? random.int(0, 3) : random.chance(0.15) ? 1 : 0;
  const cover = instants(random, to > from ? utility : 0, from, to);
  for (const at of cover) {
    const it = item(random.pick(UTILITY_THROWABLES), 'Equipment', 'Throwable');
    thrown.set(it, [...(thrown.get(it) ?? []), at]);
    const attackId = t.attackId(i);
    const attacker = t.character(i, at);
    const fields = {
      attackId,
      fireWeaponStackCount: 0,
      attacker,
      attackType: 'Weapon',
      weapon: it,
    };
    t.emit(at, { _T: 'LogPlayerAttack', ...fields, vehicle: null, common: null, _D: '' });
    t.emit(at, { _T: 'LogPlayerUseThrowable', ...fields, common: null, _D: '' });
  }
  const f = t.fighters[i]!;
  for (const [it, times] of thrown) {
    const at = Math.max(f.landedAt + 200, Math.min(...times) - random.int(3_000, 60_000));
    const pack = item(it.itemId, it.category, it.subCategory, times.length);
    t.emit(at, {
      _T: 'LogItemPickup',
      character: t.character(i, at),
      item: pack,
      common: null,
      _D: '',
    });
  }
}
