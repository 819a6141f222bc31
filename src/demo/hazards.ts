/**
 * Bombardments of a battle royale: red zones in the first three phases (none in ranked and
 * esports play), or on Karakin the black zone that levels a block of buildings. Each is a circle
 * that is active for a minute or so; the zone deaths the battle gives to bombs happen inside one.
 */
import type { Death } from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { Random } from './random.ts';
import type { Location } from './telemetry-world.ts';
import type { ZonePlan } from './zones.ts';

export interface Bombardment {
  kind: 'red' | 'black';
  startAt: number;
  endAt: number;
  x: number;
  y: number;
  /** Centimetres: red zones are 50,000 (the value real game states show). */
  r: number;
}

/** How a zone death is told: the blue zone, a red-zone bomb or the black zone. */
export type ZoneCause = 'bluezone' | 'redzone' | 'blackzone';

/**
 * The bombardments of a match and the cause each zone death is told with: a death the battle
 * gave to a bomb becomes a blue-zone death where no bombardment can be (ranked, esports, late
 * phases).
 */
export function planHazards(
  random: Random,
  map: DemoMap,
  zone: ZonePlan,
  deaths: readonly Death[],
  allowed: boolean,
  positionAt: (victim: number, at: number) => Location,
): { bombardments: Bombardment[]; causes: Map<number, ZoneCause> } {
  const bombardments: Bombardment[] = [];
  const causes = new Map<number, ZoneCause>();
  const kind = map.hazard;
  // Red zones fall in the first three phases; the black zone comes later, from the second.
  const from = zone.announcedAt[kind === 'red' ? 0 : 1] ?? Infinity;
  const until = zone.shrinkEndsAt[kind === 'red' ? 2 : 5] ?? zone.shrinkEndsAt.at(-1) ?? 0;
  const radius = kind === 'red' ? 50_000 : 30_000;
  const bombard = (at: number, centre: { x: number; y: number }): void => {
    const length = random.int(45_000, 75_000);
    const startAt = Math.round(at - random.int(5_000, length - 5_000));
    bombardments.push({
      kind,
      startAt,
      endAt: startAt + length,
      x: centre.x,
      y: centre.y,
      r: radius,
    });
  };
  for (const death of deaths) {
    if (death.cause !== 'bluezone' && death.cause !== 'redzone') continue;
    const bomb = death.cause === 'redzone' && allowed && death.at >= from && death.at < until;
    causes.set(death.victim, bomb ? (kind === 'red' ? 'redzone' : 'blackzone') : 'bluezone');
    if (!bomb || bombardments.some((b) => b.startAt <= death.at && b.endAt > death.at)) continue;
    const p = positionAt(death.victim, death.at);
    const angle = random.float(0, 2 * Math.PI);
    const off = random.next() * radius * 0.8;
    bombard(death.at, { x: p.x + Math.cos(angle) * off, y: p.y + Math.sin(angle) * off });
  }
  if (allowed && Number.isFinite(from) && until > from) {
    const wanted = kind === 'red' ? random.int(1, 3) : random.int(1, 2);
    for (let k = 0; bombardments.length < wanted && k < 10; k++) {
      const at = Math.round(random.float(from + 30_000, until - 30_000));
      const c = zone.blueAt(at);
      const angle = random.float(0, 2 * Math.PI);
      const off = Math.sqrt(random.next()) * Math.max(0, c.r - radius);
      bombard(at, { x: c.x + Math.cos(angle) * off, y: c.y + Math.sin(angle) * off });
    }
  }
  bombardments.sort((a, b) => a.startAt - b.startAt);
  return { bombardments, causes };
}

/** The bombardment active over `location` at `at`, if any. */
export function bombardmentAt(
  bombardments: readonly Bombardment[],
  location: { x: number; y: number },
  at: number,
): Bombardment | null {
  for (const b of bombardments) {
    if (b.startAt > at || b.endAt <= at) continue;
    if ((location.x - b.x) ** 2 + (location.y - b.y) ** 2 <= b.r * b.r) return b;
  }
  return null;
}
