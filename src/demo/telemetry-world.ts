/**
 * Where everyone is during a simulated match, for telemetry: landing spots, the shrinking blue
 * zone, positions over time (centimetres, inside the map), the `isGame` clock and the
 * `Character` objects that events carry. Pure functions of the battle and a random stream.
 */
import type { Battle } from './fighters.ts';
import type { DemoMap } from './game-catalogue.ts';
import type { Random } from './random.ts';

export interface Location {
  x: number;
  y: number;
  z: number;
}

interface Circle {
  x: number;
  y: number;
  r: number;
}

/** `0.1` as the game writes it: a float32 printed as a float64. */
const ON_PLANE = Math.fround(0.1);

/**
 * A measurement rounded to a quarter: still a fraction, as the game's float32 numbers are, but
 * printed short (`3597.25`), which keeps telemetry files small.
 */
export const quarter = (x: number): number => Math.round(x * 4) / 4;

export class TelemetryWorld {
  /** Instants (ms) of the phase changes: warning and shrink of each blue-zone phase. */
  readonly phaseChanges: number[] = [];
  private readonly circles: Circle[] = [];
  private readonly landing: Array<{ x: number; y: number }> = [];
  private readonly spread: Array<{ x: number; y: number }> = [];
  private readonly deathTimes: number[];
  /** When the first fighter lands: the end of the flight (`isGame` 0.1). */
  private readonly firstLanding: number;
  /** Instant the fighter's roster was wiped out; Infinity for the winners. */
  readonly rosterEnd: number[];
  private readonly extent: number;

  constructor(
    random: Random,
    readonly map: DemoMap,
    readonly battle: Battle,
    readonly arena: boolean,
  ) {
    const extent = (this.extent = map.extentCm);
    const { fighters, durationMs, matchStartAt } = battle;
    if (arena) {
      this.circles.push({
        x: random.float(0.3, 0.7) * extent,
        y: random.float(0.3, 0.7) * extent,
        r: 6_000,
      });
    } else {
      let circle: Circle = {
        x: random.float(0.3, 0.7) * extent,
        y: random.float(0.3, 0.7) * extent,
        r: extent * 0.45,
      };
      this.circles.push(circle);
      for (let k = 1; k <= map.phases; k++) {
        const r = circle.r * (k < 3 ? 0.55 : 0.62);
        const angle = random.float(0, 2 * Math.PI);
        const shift = random.next() * (circle.r - r);
        circle = {
          x: circle.x + Math.cos(angle) * shift,
          y: circle.y + Math.sin(angle) * shift,
          r,
        };
        this.circles.push(circle);
      }
      // Warnings and shrinks, closer together as the match goes on.
      const first = matchStartAt + random.int(120_000, 150_000);
      const weights = Array.from({ length: 2 * map.phases }, (_, j) => 0.93 ** j);
      const total = weights.reduce((a, b) => a + b, 0);
      let at = first;
      for (const w of weights) {
        this.phaseChanges.push(Math.round(at));
        at += ((durationMs - 45_000 - first) * w) / total;
      }
    }
    const landings = new Map<number, { x: number; y: number }>();
    for (const f of fighters) {
      let spot = landings.get(f.roster);
      if (!spot) {
        spot = { x: random.float(0.05, 0.95) * extent, y: random.float(0.05, 0.95) * extent };
        landings.set(f.roster, spot);
      }
      const jitter = arena ? 1_500 : 4_000;
      this.landing.push({
        x: this.clamp(spot.x + random.float(-jitter, jitter)),
        y: this.clamp(spot.y + random.float(-jitter, jitter)),
      });
      const angle = random.float(0, 2 * Math.PI);
      const reach = Math.sqrt(random.next());
      this.spread.push({ x: Math.cos(angle) * reach, y: Math.sin(angle) * reach });
    }
    this.deathTimes = battle.deaths
      .filter((d) => !arena || d.cause === 'logout')
      .map((d) => d.at)
      .sort((a, b) => a - b);
    this.firstLanding = Math.min(...fighters.map((f) => f.landedAt));
    const ends = battle.rosters.map((r) =>
      r.rank === 1 ? Infinity : Math.max(...r.members.map((i) => fighters[i]!.diedAt ?? Infinity)),
    );
    this.rosterEnd = fighters.map((f) => ends[f.roster]!);
  }

  private clamp(v: number): number {
    return Math.min(this.extent - 100, Math.max(100, v));
  }

  /**
   * `common.isGame`: 0 in the lobby, 0.1 until the first landing, 0.5 before the first zone, then
   * +0.5 per phase change.
   */
  isGame(at: number): number {
    const { matchStartAt } = this.battle;
    if (at < matchStartAt) return 0;
    if (this.arena) return 1;
    if (at < this.firstLanding) return ON_PLANE;
    let passed = 0;
    while (passed < this.phaseChanges.length && this.phaseChanges[passed]! <= at) passed++;
    return passed === 0 ? 0.5 : 1 + 0.5 * (passed - 1);
  }

  /** Index of the safe circle at `at` (0 = the first, before any shrink). */
  private circleIndex(at: number): number {
    let k = 0;
    for (let j = 1; j < this.phaseChanges.length && this.phaseChanges[j]! <= at; j += 2) k++;
    return Math.min(k, this.circles.length - 1);
  }

  /** Current safe zone and the announced next one. */
  zones(at: number): { safe: Circle; warning: Circle | null } {
    const k = this.circleIndex(at);
    let announced = 0;
    while (announced < this.phaseChanges.length && this.phaseChanges[announced]! <= at) announced++;
    const next = Math.ceil(announced / 2);
    return {
      safe: this.circles[k]!,
      warning: next > k && next < this.circles.length ? this.circles[next]! : null,
    };
  }

  aliveCount(at: number): number {
    let lo = 0;
    let hi = this.deathTimes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.deathTimes[mid]! <= at) lo = mid + 1;
      else hi = mid;
    }
    return this.battle.fighters.length - lo;
  }

  aliveTeams(at: number): number {
    const { fighters, rosters } = this.battle;
    return rosters.filter((r) =>
      r.members.some((i) => fighters[i]!.diedAt === null || fighters[i]!.diedAt! > at),
    ).length;
  }

  /**
   * Where fighter `i` is at `at`: drifting from the landing spot toward the safe zone; frozen once
   * dead.
   */
  position(i: number, at: number): Location {
    const f = this.battle.fighters[i]!;
    const t = f.diedAt === null ? at : Math.min(at, f.diedAt);
    const from = this.landing[i]!;
    let x: number;
    let y: number;
    if (this.arena) {
      const c = this.circles[0]!;
      x = c.x + c.r * Math.sin(t / 17_000 + i) * this.spread[i]!.x;
      y = c.y + c.r * Math.cos(t / 23_000 + 2 * i) * this.spread[i]!.y;
    } else {
      const circle = this.circles[this.circleIndex(t)]!;
      const progress =
        Math.min(1, Math.max(0, (t - f.landedAt) / (this.battle.durationMs - f.landedAt))) ** 0.7;
      x = from.x + (circle.x + this.spread[i]!.x * circle.r * 0.7 - from.x) * progress;
      y = from.y + (circle.y + this.spread[i]!.y * circle.r * 0.7 - from.y) * progress;
    }
    x = this.clamp(x);
    y = this.clamp(y);
    const z = 150 + Math.abs(Math.sin(x / 41_000) * Math.cos(y / 53_000)) * 3_800;
    return { x: quarter(x), y: quarter(y), z: quarter(z) };
  }

  /** A point near `from`, `metres` away (for the other end of a shot). */
  offset(from: Location, metres: number, random: Random): Location {
    const angle = random.float(0, 2 * Math.PI);
    return {
      x: quarter(this.clamp(from.x + Math.cos(angle) * metres * 100)),
      y: quarter(this.clamp(from.y + Math.sin(angle) * metres * 100)),
      z: quarter(from.z + random.float(-150, 150)),
    };
  }

  /** A spot on the starting island, where everyone waits before the plane. */
  lobbySpot(random: Random): Location {
    return {
      x: quarter(this.extent * 0.03 + random.float(0, 3_000)),
      y: quarter(this.extent * 0.03 + random.float(0, 3_000)),
      z: quarter(random.float(300, 320)),
    };
  }

  /**
   * The named area (`Character.zone`) at a location: the map is cut into a grid whose cells are
   * either open country or one of the map's towns, so nearby characters agree.
   */
  zoneAt(location: Location): string[] {
    const zones = this.map.zones;
    if (zones.length === 0) return [];
    const cell = this.extent / 10;
    const key =
      (Math.floor(location.x / cell) * 31 + Math.floor(location.y / cell) * 17 + zones.length) % 7;
    if (key < 3) return [];
    return [
      zones[
        (Math.floor(location.x / cell) * 7 + Math.floor(location.y / cell) * 3) % zones.length
      ]!,
    ];
  }
}
