/**
 * The event writer behind a match's telemetry: stamps events with `_D` and `common.isGame`,
 * builds `Character` objects from the simulated world, and puts the events in time order
 * behind LogMatchDefinition. The modules that tell parts of the story write through it.
 */
import type { ParticipantStatsInput, TelemetryEventInput } from '../ingest/match-input.ts';
import type { Battle, Fighter } from './fighters.ts';
import type { DemoMap, Weapon } from './game-catalogue.ts';
import type { Random } from './random.ts';
import { TelemetryWorld, quarter, type Location } from './telemetry-world.ts';

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
  /** Team deathmatch: no plane, no zone, respawns. */
  arena: boolean;
}

export type Fields = Record<string, unknown>;
/** One event: `_T`, `_D` and its own fields (the ingest type leaves the fields open). */
type TelemetryEvent = TelemetryEventInput & Fields;
/**
 * An event as built: `common` and `_D` are placeholders that `emit` fills (one object shape, no
 * reshaping).
 */
export type Draft = { _T: string; common: null; _D: '' } & Fields;

export interface CharacterOptions {
  health?: number;
  location?: Location;
  ranking?: number;
  blue?: boolean;
}

const SUBCATEGORY: Readonly<Record<string, string>> = {
  pistol: 'Handgun',
  throwable: 'Throwable',
  melee: 'Melee',
};

/** A `DamageInfo` object (LogPlayerKillV2). */
export const damageInfo = (
  category: string,
  causer: string,
  reason: string,
  distanceCm: number,
): Fields => ({
  damageReason: reason,
  damageTypeCategory: category,
  damageCauserName: causer,
  additionalInfo: [],
  distance: distanceCm,
  isThroughPenetrableWall: false,
});
export const noDamage = (): Fields => damageInfo('', '', '', -1);
/** `damageReason` of a hit. */
export const bodyPart = (random: Random, headshot: boolean): string =>
  headshot
    ? 'HeadShot'
    : random.weighted([
        ['TorsoShot', 6],
        ['ArmShot', 2],
        ['LegShot', 2],
        ['PelvisShot', 1],
      ]);
export const weaponItem = (w: Weapon): Fields => ({
  itemId: w.itemId,
  stackCount: 1,
  category: 'Weapon',
  subCategory: SUBCATEGORY[w.weaponClass] ?? 'Main',
  attachedItems: [],
});

/** Collects one match's events; `finish` returns them in file order. */
export class TelemetryWriter {
  private readonly events: Array<{ at: number; event: TelemetryEvent }> = [];
  private readonly minutes = new Map<number, string>();
  readonly world: TelemetryWorld;
  readonly fighters: readonly Fighter[];
  /** Parachute distance of each fighter, cm (LogParachuteLanding and results agree). */
  readonly parachute: number[];
  private readonly freefall: number[];

  constructor(
    readonly random: Random,
    readonly input: TelemetryInput,
  ) {
    this.world = new TelemetryWorld(random, input.map, input.battle, input.arena);
    this.fighters = input.battle.fighters;
    this.parachute = this.fighters.map(() =>
      input.arena ? 0 : quarter(random.float(15_000, 60_000)),
    );
    this.freefall = this.fighters.map(() =>
      input.arena ? 0 : quarter(random.float(60_000, 240_000)),
    );
  }

  emit(at: number, draft: Draft): void {
    if (at < 0 || at > this.input.battle.durationMs) return;
    const event = draft as unknown as TelemetryEvent;
    event.common = { isGame: this.world.isGame(at) };
    event._D = this.timestamp(this.input.createdAt + at);
    this.events.push({ at, event });
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

  character(i: number, at: number, o: CharacterOptions = {}): Fields {
    const f = this.fighters[i]!;
    const location = o.location ?? this.world.position(i, at);
    return {
      name: f.name,
      teamId: f.teamId,
      health: o.health ?? 100,
      location,
      ranking: o.ranking ?? 0,
      accountId: f.playerId,
      isInBlueZone: o.blue ?? false,
      isInRedZone: false,
      zone: this.world.zoneAt(location),
    };
  }

  wrapper(character: Fields, f: Fighter | null): Fields {
    return {
      character,
      primaryWeaponFirst: f?.loadout[0].itemId ?? '',
      primaryWeaponSecond: f?.loadout[1].itemId ?? '',
      secondaryWeapon: '',
      spawnKitIndex: 0,
    };
  }

  resultStats(i: number, kills: number): Fields {
    const s = this.input.stats[i]!;
    return {
      killCount: kills,
      distanceOnFoot: quarter(s.walkDistance * 100),
      distanceOnSwim: quarter(s.swimDistance * 100),
      distanceOnVehicle: quarter(s.rideDistance * 100),
      distanceOnParachute: this.parachute[i]!,
      distanceOnFreefall: this.freefall[i]!,
    };
  }

  /** The events in time order behind LogMatchDefinition, whose `_D` has 7 fractional digits. */
  finish(): TelemetryEventInput[] {
    const { random } = this;
    this.events.sort((a, b) => a.at - b.at);
    const at = this.input.battle.matchStartAt + random.int(20, 900);
    const definition: TelemetryEvent = {
      _T: 'LogMatchDefinition',
      MatchId: this.input.matchId,
      PingQuality: random.chance(0.6) ? 'low' : 'high',
      SeasonState: 'progress',
      _D: new Date(this.input.createdAt + at)
        .toISOString()
        .replace('Z', `${random.int(0, 9999).toString().padStart(4, '0')}Z`),
    };
    return [definition, ...this.events.map((e) => e.event)];
  }
}
