/**
 * The flight in of a battle royale: the aircraft's straight path across the map, where and when
 * each fighter jumps, and where they land — near the path, teammates together, and a share of
 * the teams in a few hot drops along it (so "hot-drop landings" mean something). Centimetres and
 * milliseconds after the match's createdAt.
 */
import type { Battle } from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { Random } from './random.ts';

/** Altitude of the aircraft (the value real telemetry shows). */
export const AIRCRAFT_Z = 150_088;
/** Seconds the aircraft takes to cross an 8 km map; smaller maps in proportion. */
const CROSSING_S = 160;
/** Least time between a jump and the landing, ms. */
const MIN_DESCENT_MS = 20_000;

export interface Point {
  x: number;
  y: number;
}

export class FlightPlan {
  readonly flightMs: number;
  private readonly from: Point;
  private readonly to: Point;
  /** Per fighter: when they jump, from where, and where they land. */
  readonly jumpAt: number[] = [];
  readonly jumpFrom: Point[] = [];
  readonly landing: Point[] = [];

  constructor(
    random: Random,
    private readonly map: DemoMap,
    battle: Battle,
  ) {
    const extent = map.extentCm;
    this.flightMs = (CROSSING_S * 1000 * extent) / 816_000;
    const angle = random.float(0, 2 * Math.PI);
    const half = extent * 0.65;
    const centre = {
      x: extent * random.float(0.35, 0.65),
      y: extent * random.float(0.35, 0.65),
    };
    this.from = { x: centre.x - Math.cos(angle) * half, y: centre.y - Math.sin(angle) * half };
    this.to = { x: centre.x + Math.cos(angle) * half, y: centre.y + Math.sin(angle) * half };
    const hotSpots = Array.from({ length: 5 }, () => this.offPath(random, random.float(0.1, 0.5)));

    const start = battle.matchStartAt;
    const teamSpot = new Map<number, { s: number; spot: Point }>();
    for (const f of battle.fighters) {
      let team = teamSpot.get(f.roster);
      if (!team) {
        // The team jumps as early as its landing time allows; some aim for a hot drop.
        const latest = Math.max(0.02, (f.landedAt - start - MIN_DESCENT_MS) / this.flightMs);
        const s = Math.min(1, random.float(0.02, latest));
        const spot = random.chance(0.4)
          ? this.near(random, random.pick(hotSpots), 9_000)
          : this.offPath(random, s);
        team = { s, spot };
        teamSpot.set(f.roster, team);
      }
      const s = Math.min(
        team.s,
        Math.max(0, (f.landedAt - start - MIN_DESCENT_MS) / this.flightMs),
      );
      this.jumpAt.push(Math.round(start + s * this.flightMs));
      this.jumpFrom.push(this.along(s));
      this.landing.push(this.near(random, team.spot, 2_500));
    }
  }

  /** The aircraft's position `s` of the way along its path (0 … 1). */
  along(s: number): Point {
    const t = Math.min(1, Math.max(0, s));
    return {
      x: this.clamp(this.from.x + (this.to.x - this.from.x) * t),
      y: this.clamp(this.from.y + (this.to.y - this.from.y) * t),
    };
  }

  /** Where the aircraft is at `at` (ms after createdAt), for a match that took off at `start`. */
  aircraftAt(at: number, start: number): Point {
    return this.along((at - start) / this.flightMs);
  }

  /** Path length flown from take-off to `at`, metres. */
  flownMetres(at: number, start: number): number {
    const s = Math.min(1, Math.max(0, (at - start) / this.flightMs));
    return (Math.hypot(this.to.x - this.from.x, this.to.y - this.from.y) * s) / 100;
  }

  /** A landing spot within gliding reach of the path at `s`. */
  private offPath(random: Random, s: number): Point {
    const p = this.along(s);
    const reach = Math.min(this.map.extentCm * 0.25, 180_000);
    return this.near(random, p, reach);
  }

  private near(random: Random, p: Point, radius: number): Point {
    const angle = random.float(0, 2 * Math.PI);
    const r = radius * Math.sqrt(random.next());
    return { x: this.clamp(p.x + Math.cos(angle) * r), y: this.clamp(p.y + Math.sin(angle) * r) };
  }

  private clamp(v: number): number {
    return Math.min(this.map.extentCm - 100, Math.max(100, v));
  }
}
