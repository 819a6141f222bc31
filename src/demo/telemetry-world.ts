/**
 * Where everyone is during a simulated match: on the starting island, in the aircraft, falling,
 * then drifting from their landing spot toward the announced circle (some of them late, and
 * caught by the blue; blue-zone victims out into it before they die); the zone, the
 * bombardments, the `isGame` clock, named areas. Centimetres and ms after createdAt; pure
 * functions of the battle and a random stream.
 */
import type { Battle, Fighter } from './fighters.ts';
import { AIRCRAFT_Z, FlightPlan } from './flight.ts';
import { bombardmentAt, type Bombardment } from './hazards.ts';
import { NamedAreas } from './named-areas.ts';
import { Vitals } from './telemetry-vitals.ts';
import type { DemoMap } from './maps.ts';
import type { Random } from './random.ts';
import { ZonePlan, type Circle } from './zones.ts';

export interface Location {
  x: number;
  y: number;
  z: number;
}

/** `0.1` as the game writes it: a float32 printed as a float64. */
const ON_PLANE = Math.fround(0.1);

/**
 * A measurement rounded to a quarter: still a fraction, as the game's float32 numbers are, but
 * printed short (`3597.25`), which keeps telemetry files small.
 */
export const quarter = (x: number): number => Math.round(x * 4) / 4;

const ascending = (a: number, b: number): number => a - b;

export class TelemetryWorld {
  readonly zone: ZonePlan | null;
  readonly flight: FlightPlan | null;
  bombardments: readonly Bombardment[] = [];
  /** Blue-zone victims drift out of the zone in their last 90 s: where to, once known. */
  readonly blueVictims = new Map<number, Location | null>();
  private readonly extent: number;
  private readonly spread: Array<{ x: number; y: number }> = [];
  /** How long behind the announcements each fighter moves: the late get caught by the blue. */
  private readonly lag: number[] = [];
  private readonly arenaCentre: { x: number; y: number };
  /** Everyone's health and knocks over time. */
  readonly vitals: Vitals;
  /** The named areas (`Character.zone`) of the map. */
  readonly areas: NamedAreas;
  private readonly deathTimes: number[];
  private readonly firstLanding: number;
  /** Instant the fighter's roster was wiped out; Infinity for the winners. */
  readonly rosterEnd: number[];
  private readonly rosterEnds: number[];

  constructor(
    random: Random,
    readonly map: DemoMap,
    readonly battle: Battle,
    readonly arena: boolean,
  ) {
    const extent = (this.extent = map.extentCm);
    const { fighters } = battle;
    this.zone = arena ? null : new ZonePlan(random, extent, map.zone, battle.matchStartAt);
    this.flight = arena ? null : new FlightPlan(random, map, battle);
    this.arenaCentre = { x: random.float(0.3, 0.7) * extent, y: random.float(0.3, 0.7) * extent };
    for (let k = 0; k < fighters.length; k++) {
      const angle = random.float(0, 2 * Math.PI);
      const reach = Math.sqrt(random.next());
      this.spread.push({ x: Math.cos(angle) * reach, y: Math.sin(angle) * reach });
      this.lag.push(random.chance(0.4) ? random.int(60_000, 240_000) : 0);
    }
    this.vitals = new Vitals(battle);
    const deathTimes: number[] = [];
    for (const d of battle.deaths) if (!arena || d.cause === 'logout') deathTimes.push(d.at);
    this.deathTimes = deathTimes.sort(ascending);
    let firstLanding = Infinity;
    for (const f of fighters) firstLanding = Math.min(firstLanding, f.landedAt);
    this.firstLanding = firstLanding;
    const ends: number[] = [];
    for (const r of battle.rosters) {
      let lastDeath = -Infinity;
      for (const i of r.members) lastDeath = Math.max(lastDeath, fighters[i]!.diedAt ?? Infinity);
      ends.push(r.rank === 1 ? Infinity : lastDeath);
    }
    this.rosterEnds = ends;
    const rosterEnd: number[] = [];
    for (const f of fighters) rosterEnd.push(ends[f.roster]!);
    this.rosterEnd = rosterEnd;
    this.areas = new NamedAreas(map);
  }

  /** The team deathmatch arena (it has no shrinking zone). */
  get arenaCircle(): Circle {
    return { x: this.arenaCentre.x, y: this.arenaCentre.y, r: 6_000 };
  }

  /** `common.isGame`: 0 in the lobby, 0.1 in the air, 0.5 landed, then +0.5 per phase change. */
  isGame(at: number): number {
    if (at < this.battle.matchStartAt) return 0;
    if (this.arena) return 1;
    if (at < this.firstLanding) return ON_PLANE;
    const passed = this.zone!.changesBy(at);
    return passed === 0 ? 0.5 : 1 + 0.5 * (passed - 1);
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
    let n = 0;
    for (const end of this.rosterEnds) if (end > at) n++;
    return n;
  }

  /** Where fighter `i` is at `at`; frozen where they died. */
  position(i: number, at: number): Location {
    const f = this.battle.fighters[i]!;
    const t = f.diedAt === null ? at : Math.min(at, f.diedAt);
    if (this.arena) return this.arenaPosition(i, t);
    const flight = this.flight!;
    const start = this.battle.matchStartAt;
    const jumpAt = flight.jumpAt[i]!;
    if (t < jumpAt) {
      const p = t < start ? flight.along(0) : flight.aircraftAt(t, start);
      return { x: quarter(p.x), y: quarter(p.y), z: AIRCRAFT_Z };
    }
    const landing = flight.landing[i]!;
    if (t < f.landedAt) {
      const u = (t - jumpAt) / (f.landedAt - jumpAt);
      const from = flight.jumpFrom[i]!;
      const x = from.x + (landing.x - from.x) * u;
      const y = from.y + (landing.y - from.y) * u;
      return {
        x: quarter(x),
        y: quarter(y),
        z: quarter(AIRCRAFT_Z + (this.ground(x, y) - AIRCRAFT_Z) * u),
      };
    }
    const p = this.roam(f, t, landing);
    const out = this.blueVictims.has(i) ? this.outsideBlue(i, t, p) : p;
    return { x: quarter(out.x), y: quarter(out.y), z: quarter(this.ground(out.x, out.y)) };
  }

  /** On the ground: looting around the landing spot, then heading into the announced circle. */
  private roam(f: Fighter, t: number, landing: { x: number; y: number }): { x: number; y: number } {
    const wobble = 2_000 * Math.sin(t / 37_000 + f.index);
    const white = this.zone!.whiteAt(t - this.lag[f.index]!);
    if (!white) return { x: this.clamp(landing.x + wobble), y: this.clamp(landing.y - wobble) };
    const span = this.battle.durationMs - f.landedAt;
    const progress = Math.min(1, Math.max(0, (t - f.landedAt) / span)) ** 0.7;
    const s = this.spread[f.index]!;
    const tx = white.x + s.x * white.r * 0.7;
    const ty = white.y + s.y * white.r * 0.7;
    return {
      x: this.clamp(landing.x + (tx - landing.x) * progress + wobble),
      y: this.clamp(landing.y + (ty - landing.y) * progress - wobble),
    };
  }

  /** A blue-zone victim's last 90 s: from where they were to just outside the blue. */
  private outsideBlue(i: number, t: number, p: { x: number; y: number }): { x: number; y: number } {
    const diedAt = this.battle.fighters[i]!.diedAt!;
    const from = diedAt - 90_000;
    if (t <= from) return p;
    let target = this.blueVictims.get(i);
    if (!target) {
      const c = this.zone!.blueAt(diedAt);
      const start = this.roam(this.battle.fighters[i]!, from, this.flight!.landing[i]!);
      const d = Math.hypot(start.x - c.x, start.y - c.y) || 1;
      const r = c.r + 3_000;
      target = {
        x: this.clamp(c.x + ((start.x - c.x) / d) * r),
        y: this.clamp(c.y + ((start.y - c.y) / d) * r),
        z: 0,
      };
      this.blueVictims.set(i, target);
    }
    const u = (t - from) / 90_000;
    return { x: p.x + (target.x - p.x) * u, y: p.y + (target.y - p.y) * u };
  }

  private arenaPosition(i: number, t: number): Location {
    const c = this.arenaCentre;
    const s = this.spread[i]!;
    const x = this.clamp(c.x + 6_000 * Math.sin(t / 17_000 + i) * s.x);
    const y = this.clamp(c.y + 6_000 * Math.cos(t / 23_000 + 2 * i) * s.y);
    return { x: quarter(x), y: quarter(y), z: quarter(this.ground(x, y)) };
  }

  /** Ground altitude, cm: rolling hills. */
  ground(x: number, y: number): number {
    return 150 + Math.abs(Math.sin(x / 41_000) * Math.cos(y / 53_000)) * 3_800;
  }

  isInBlueZone(location: Location, at: number): boolean {
    return this.zone !== null && this.zone.outside(location.x, location.y, at);
  }

  isInRedZone(location: Location, at: number): boolean {
    return bombardmentAt(this.bombardments, location, at)?.kind === 'red';
  }

  /** A point `metres` away from `from` (the other end of a shot). */
  offset(from: Location, metres: number, random: Random): Location {
    const angle = random.float(0, 2 * Math.PI);
    return {
      x: quarter(this.clamp(from.x + Math.cos(angle) * metres * 100)),
      y: quarter(this.clamp(from.y + Math.sin(angle) * metres * 100)),
      z: quarter(from.z + random.float(-150, 150)),
    };
  }

  /** A spot on the starting island, where everyone waits before take-off. */
  lobbySpot(random: Random): Location {
    return {
      x: quarter(this.extent * 0.03 + random.float(0, 3_000)),
      y: quarter(this.extent * 0.03 + random.float(0, 3_000)),
      z: quarter(random.float(300, 320)),
    };
  }

  private clamp(v: number): number {
    return Math.min(this.extent - 100, Math.max(100, v));
  }
}
