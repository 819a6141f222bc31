/**
 * The blue zone of a battle royale: per map size, the phases' timings (how long each white
 * circle is shown before the blue closes in, how long the closing takes, the damage outside),
 * and for one match the circles and instants they produce. Times are milliseconds after the
 * match's createdAt; positions and radii are centimetres.
 *
 * The timings are modelled on the live game's settings for each map size as players document
 * them (the game publishes no table): a big map's first circle appears two minutes after
 * take-off and holds four minutes before the blue moves for five, later phases are shorter, the
 * last ones close in half a minute; smaller maps start sooner and run fewer, faster phases.
 */
import type { Random } from './random.ts';

export interface ZoneTimings {
  /** Seconds from take-off (LogMatchStart) to the first white circle. */
  firstCircleAfterS: number;
  /** Per phase: seconds the white circle is shown before the blue moves, seconds the move takes. */
  phases: ReadonlyArray<readonly [number, number]>;
  /** Blue-zone damage per second outside the zone, per phase (HP). */
  damagePerSecond: readonly number[];
  /** Radius of each phase's circle as a share of the previous one (the first: of the map's). */
  radiusRates: readonly number[];
}

const RATES = [0.38, 0.62, 0.52, 0.55, 0.5, 0.5, 0.5, 0.5, 0.5];
const DAMAGE = [0.4, 0.6, 0.8, 1, 3, 5, 7, 9, 11];

// prettier-ignore
export const ZONE_8X8: ZoneTimings = {
  firstCircleAfterS: 120,
  phases: [[240, 300], [200, 140], [150, 90], [120, 60], [120, 40], [90, 30], [90, 30], [60, 30], [30, 30]],
  damagePerSecond: DAMAGE, radiusRates: RATES,
};
// prettier-ignore
export const ZONE_4X4: ZoneTimings = {
  firstCircleAfterS: 90,
  phases: [[180, 180], [150, 120], [120, 90], [100, 60], [90, 40], [60, 30], [60, 30], [45, 30]],
  damagePerSecond: DAMAGE.slice(1), radiusRates: RATES.slice(1),
};
// prettier-ignore
export const ZONE_3X3: ZoneTimings = {
  firstCircleAfterS: 90,
  phases: [[150, 150], [120, 120], [120, 90], [90, 60], [90, 40], [60, 30], [60, 30], [45, 30]],
  damagePerSecond: DAMAGE.slice(1), radiusRates: RATES.slice(1),
};
// prettier-ignore
export const ZONE_2X2: ZoneTimings = {
  firstCircleAfterS: 60,
  phases: [[150, 150], [120, 120], [90, 90], [90, 60], [60, 60], [60, 45], [45, 30], [30, 30]],
  damagePerSecond: DAMAGE.slice(1), radiusRates: RATES.slice(1),
};
// prettier-ignore
export const ZONE_1X1: ZoneTimings = {
  firstCircleAfterS: 60,
  phases: [[120, 120], [100, 90], [90, 60], [75, 45], [60, 40], [45, 30], [30, 30]],
  damagePerSecond: DAMAGE.slice(2), radiusRates: RATES.slice(2),
};

export interface Circle {
  x: number;
  y: number;
  r: number;
}

/** The zone of one match: its circles and when each is announced and closed in on. */
export class ZonePlan {
  /** circles[0] covers the whole map; circles[k] is phase k's white circle. */
  readonly circles: Circle[] = [];
  /** Per phase k (index k − 1): when its white circle appears, when the blue starts and ends moving. */
  readonly announcedAt: number[] = [];
  readonly shrinkStartsAt: number[] = [];
  readonly shrinkEndsAt: number[] = [];
  /** LogPhaseChange instants, in order: phase 1's announcement, its shrink, phase 2's … */
  readonly phaseChanges: Array<{ at: number; phase: number }> = [];

  constructor(
    random: Random,
    extentCm: number,
    private readonly timings: ZoneTimings,
    matchStartAt: number,
  ) {
    let circle: Circle = { x: extentCm / 2, y: extentCm / 2, r: extentCm * 0.71 };
    this.circles.push(circle);
    let at = matchStartAt + timings.firstCircleAfterS * 1000;
    timings.phases.forEach(([wait, shrink], k) => {
      const r = circle.r * timings.radiusRates[k]!;
      // The first circle lies well inside the map; later ones anywhere inside the previous one.
      const room = k === 0 ? Math.min(extentCm / 2 - r, circle.r - r) * 0.8 : circle.r - r;
      const angle = random.float(0, 2 * Math.PI);
      const shift = Math.sqrt(random.next()) * Math.max(0, room);
      circle = { x: circle.x + Math.cos(angle) * shift, y: circle.y + Math.sin(angle) * shift, r };
      this.circles.push(circle);
      this.announcedAt.push(at);
      this.shrinkStartsAt.push(at + wait * 1000);
      this.shrinkEndsAt.push(at + (wait + shrink) * 1000);
      this.phaseChanges.push({ at, phase: k + 1 }, { at: at + wait * 1000, phase: k + 1 });
      at += (wait + shrink) * 1000;
    });
  }

  /** Phase changes that happened at or before `at`. */
  changesBy(at: number): number {
    let n = 0;
    while (n < this.phaseChanges.length && this.phaseChanges[n]!.at <= at) n++;
    return n;
  }

  /** The blue zone's edge at `at`: a circle, moving from one white circle to the next. */
  blueAt(at: number): Circle {
    for (let k = 0; k < this.shrinkStartsAt.length; k++) {
      if (at < this.shrinkStartsAt[k]!) return this.circles[k]!;
      if (at < this.shrinkEndsAt[k]!) {
        const from = this.circles[k]!;
        const to = this.circles[k + 1]!;
        const f =
          (at - this.shrinkStartsAt[k]!) / (this.shrinkEndsAt[k]! - this.shrinkStartsAt[k]!);
        return {
          x: from.x + (to.x - from.x) * f,
          y: from.y + (to.y - from.y) * f,
          r: from.r + (to.r - from.r) * f,
        };
      }
    }
    return this.circles.at(-1)!;
  }

  /** The white circle shown at `at` (the next safe zone); null before the first one. */
  whiteAt(at: number): Circle | null {
    let k = 0;
    while (k < this.announcedAt.length && this.announcedAt[k]! <= at) k++;
    return k === 0 ? null : this.circles[k]!;
  }

  /** HP per second the blue zone takes outside it at `at`. */
  damagePerSecondAt(at: number): number {
    let k = 0;
    while (k < this.shrinkStartsAt.length - 1 && this.shrinkStartsAt[k + 1]! <= at) k++;
    return this.timings.damagePerSecond[k] ?? 1;
  }

  /** True when (x, y) lies outside the blue zone at `at` (no allocation: it runs per character). */
  outside(x: number, y: number, at: number): boolean {
    const starts = this.shrinkStartsAt;
    let k = 0;
    while (k < starts.length && starts[k]! <= at) k++;
    // After k shrinks began: circle k, or on the way to it while shrink k − 1 still runs.
    const to = this.circles[k]!;
    let cx = to.x;
    let cy = to.y;
    let r = to.r;
    if (k > 0 && at < this.shrinkEndsAt[k - 1]!) {
      const from = this.circles[k - 1]!;
      const f = (at - starts[k - 1]!) / (this.shrinkEndsAt[k - 1]! - starts[k - 1]!);
      cx = from.x + (to.x - from.x) * f;
      cy = from.y + (to.y - from.y) * f;
      r = from.r + (to.r - from.r) * f;
    }
    return (x - cx) ** 2 + (y - cy) ** 2 > r * r;
  }
}
