/**
 * The event writer behind a match's telemetry: stamps events with `_D` and `common.isGame`,
 * builds `Character` objects from the simulated world, hands out attack ids, and puts the events
 * in time order behind LogMatchDefinition. The modules that tell parts of the story write
 * through it and share what they plan (kits, rides, weapon statistics) on it.
 */
import type { ParticipantStatsInput, TelemetryEventInput } from '../ingest/match-input.ts';
import type { Battle, Fighter } from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { Random } from './random.ts';
import type { TelemetryProfile } from './telemetry-profile.ts';
import { EventObjects, EventTexts, type TelemetryText } from './telemetry-sinks.ts';
import { TelemetryWorld, quarter, type Location } from './telemetry-world.ts';
import { isInVehicle, type Trip } from './travel-plan.ts';

export interface TelemetryInput {
  /** Epoch ms of the match's createdAt; event times are offsets from it. */
  createdAt: number;
  /** LogMatchDefinition.MatchId. */
  matchId: string;
  map: DemoMap;
  battle: Battle;
  stats: readonly ParticipantStatsInput[];
  fpp: boolean;
  isCustomGame: boolean;
  isEventMode: boolean;
  /** Team deathmatch: no aircraft, no zone, respawns. */
  arena: boolean;
  /** Red or black zones and flare guns: off in ranked, esports and tournament play. */
  hazards: boolean;
  /** Tournament matches keep the older LogPlayerKill beside LogPlayerKillV2. */
  tournament: boolean;
  profile: TelemetryProfile;
}

export type Fields = Record<string, unknown>;
/**
 * An event as built: `_T` first, `common` and `_D` last as placeholders that `emit` fills — the
 * key order of modern files, and one object shape with no reshaping.
 */
export type Draft = { _T: string; common: null; _D: '' } & Fields;

export interface CharacterOptions {
  health?: number;
  location?: Location;
  ranking?: number;
  individualRanking?: number;
  blue?: boolean;
}

/** The stand-in attacker of a red-zone bomb: no name, no account, team 0. */
const SENTINEL = Object.freeze({
  name: '',
  teamId: 0,
  health: 0,
  location: Object.freeze({ x: 0, y: 0, z: 0 }),
  ranking: 0,
  individualRanking: 0,
  accountId: '',
  isInBlueZone: false,
  isInRedZone: false,
  inSpecialZone: false,
  isInVehicle: false,
  zone: Object.freeze([]),
  type: 'user',
  isDBNO: false,
});

/**
 * Collects one match's events; `finish` returns them in file order, or for a writer made
 * `asText` (see telemetry-sinks.ts) `finishText` returns them as their file.
 */
export class TelemetryWriter {
  private readonly sink: EventObjects | EventTexts;
  private readonly times: number[] = [];
  private readonly minutes = new Map<number, string>();
  private readonly commons = new Map<number, { isGame: number }>();
  private readonly attackCounts: number[];
  /** Attack ids of the bombardments (no attacker): small numbers, as real files show them. */
  private bombs: number;
  readonly world: TelemetryWorld;
  readonly fighters: readonly Fighter[];
  readonly profile: TelemetryProfile;
  readonly sentinel = SENTINEL;
  /**
   * Every fighter's trips, once the travel plan has laid them out (until then nobody is in a
   * vehicle). Data rather than a function made per match: optimized code that calls such a
   * function is thrown away once the match that made it is collected.
   */
  trips: readonly Trip[][] | null = null;
  /** Where each hit's last shot was fired from, by its attack id (kills show the same spot). */
  readonly shotFrom = new Map<number, Location>();
  /** Flare guns picked up and fired (planned with the care packages). */
  readonly flareGuns: Array<{ index: number; pickedAt: number; firedAt: number }> = [];

  constructor(
    readonly random: Random,
    readonly input: TelemetryInput,
    asText = false,
  ) {
    this.sink = asText ? new EventTexts() : new EventObjects();
    this.world = new TelemetryWorld(random, input.map, input.battle, input.arena);
    this.fighters = input.battle.fighters;
    this.profile = input.profile;
    this.attackCounts = [];
    for (const f of this.fighters) this.attackCounts.push(f.attacks);
    this.bombs = random.int(100, 400);
  }

  emit(at: number, draft: Draft): void {
    if (at < 0 || at > this.input.battle.durationMs) return;
    const event = draft as unknown as Fields;
    const isGame = this.world.isGame(at);
    let common = this.commons.get(isGame);
    if (!common) this.commons.set(isGame, (common = Object.freeze({ isGame })));
    event.common = common;
    event._D = this.timestamp(this.input.createdAt + at);
    this.sink.add(event as TelemetryEventInput);
    this.times.push(Math.floor(at));
  }

  /** Whether fighter `i` is in a vehicle at `at` (see `trips`). */
  inVehicle(i: number, at: number): boolean {
    if (this.trips === null) return false;
    const { flight } = this.world;
    return isInVehicle(this.trips[i]!, flight, this.input.battle.matchStartAt, i, at);
  }

  /**
   * A new match-unique attack id of fighter `i` (after those the battle handed out), or of a
   * bombardment when `i` is -1.
   */
  attackId(i: number): number {
    if (i < 0) return ++this.bombs;
    return (i + 1) * 16_777_216 + ++this.attackCounts[i]!;
  }

  /** `Date#toISOString` of an epoch-ms instant, with the date and time up to minutes cached. */
  private timestamp(ms: number): string {
    const minute = Math.floor(ms / 60_000);
    let prefix = this.minutes.get(minute);
    if (prefix === undefined) {
      prefix = new Date(minute * 60_000).toISOString().slice(0, 17);
      this.minutes.set(minute, prefix);
    }
    const rest = Math.floor(ms) - minute * 60_000;
    const seconds = Math.floor(rest / 1000);
    const millis = rest % 1000;
    const pad = millis < 10 ? '00' : millis < 100 ? '0' : '';
    return `${prefix}${seconds < 10 ? '0' : ''}${seconds}.${pad}${millis}Z`;
  }

  /** The `Character` of fighter `i` at `at`, in the modern key order. */
  character(i: number, at: number, o: CharacterOptions = {}): Fields {
    const f = this.fighters[i]!;
    const { world } = this;
    const location = o.location ?? world.position(i, at);
    return {
      name: f.name,
      teamId: f.teamId,
      health: o.health ?? world.vitals.health(i, at),
      location,
      ranking: o.ranking ?? 0,
      individualRanking: o.individualRanking ?? 0,
      accountId: f.playerId,
      isInBlueZone: o.blue ?? world.isInBlueZone(location, at),
      isInRedZone: world.isInRedZone(location, at),
      inSpecialZone: false,
      isInVehicle: this.inVehicle(i, at),
      zone: world.areas.at(location),
      type: 'user',
      isDBNO: world.vitals.isKnocked(i, at),
    };
  }

  wrapper(character: Fields, f: Fighter | null): Fields {
    return {
      character,
      primaryWeaponFirst: f?.loadout[0].itemId ?? '',
      primaryWeaponSecond: f?.loadout[1].itemId ?? '',
      secondaryWeapon: '',
      spawnKitIndex: this.input.arena && f ? f.roster : 0,
    };
  }

  /** A `GameResult.stats` of fighter `i` with `kills` so far (distances in centimetres). */
  resultStats(i: number, kills: number): Fields {
    const s = this.input.stats[i]!;
    const flight = this.world.flight;
    const fall = flight ? Math.hypot(...this.fall(i)) : 0;
    return {
      killCount: kills,
      distanceOnFoot: quarter(s.walkDistance * 100),
      distanceOnSwim: quarter(s.swimDistance * 100),
      distanceOnVehicle: quarter(s.rideDistance * 100),
      distanceOnParachute: flight ? this.parachuteCm(i) : 0,
      distanceOnFreefall: flight ? quarter(fall - this.parachuteCm(i)) : 0,
    };
  }

  /** Horizontal and vertical reach of fighter `i`'s jump, cm. */
  private fall(i: number): [number, number] {
    const flight = this.world.flight!;
    const from = flight.jumpFrom[i]!;
    const to = flight.landing[i]!;
    return [Math.hypot(to.x - from.x, to.y - from.y), 150_000];
  }

  /** Distance fighter `i` covered under the parachute, cm (LogParachuteLanding.distance). */
  parachuteCm(i: number): number {
    const [across, down] = this.fall(i);
    return quarter(Math.hypot(across * 0.7, down * 0.45));
  }

  /** The events in time order behind LogMatchDefinition, whose `_D` has 7 fractional digits. */
  finish(): TelemetryEventInput[] {
    if (!(this.sink instanceof EventObjects)) throw new Error('finish needs a writer of objects');
    const { order, definition } = this.order();
    return this.sink.inOrder(order, definition);
  }

  /** What `finish` returns, as its file's text (for a writer made `asText`). */
  finishText(): TelemetryText {
    if (!(this.sink instanceof EventTexts))
      throw new Error('finishText needs a writer made asText');
    const { order, definition } = this.order();
    return this.sink.inOrder(order, definition);
  }

  /** Emit indices in time order (ties in emit order), and LogMatchDefinition. */
  private order(): { order: Float64Array; definition: TelemetryEventInput } {
    const { random, times } = this;
    // One number per event, time then position, sorted natively: no comparator calls.
    const keys = new Float64Array(times.length);
    for (let k = 0; k < times.length; k++) keys[k] = times[k]! * 1_048_576 + k;
    keys.sort();
    for (let k = 0; k < keys.length; k++) keys[k] = keys[k]! % 1_048_576;
    const at = this.input.battle.matchStartAt + random.int(20, 900);
    const definition = {
      _T: 'LogMatchDefinition',
      MatchId: this.input.matchId,
      PingQuality: random.chance(0.6) ? 'low' : 'high',
      _D: new Date(this.input.createdAt + at)
        .toISOString()
        .replace('Z', `${random.int(0, 9999).toString().padStart(4, '0')}Z`),
    };
    return { order: keys, definition };
  }
}
