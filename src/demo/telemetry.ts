/**
 * The telemetry of a simulated match (ENUMS §8–§10): every event kind a real match of its mode
 * carries, told from the battle and the participants' stats so that they agree — each hit's
 * shots and damage, knocks, revives and deaths, positions of every living player throughout,
 * the zone's phases with the map's timings, bombardments, care packages, loot, heals, rides and
 * swims. The profile decides how finely the continuous parts are sampled (see
 * `telemetry-profile.ts`).
 *
 * Plans come first (bombardments, trips, kits, crates), so that every event can show the state
 * the others imply; then each part of the story is written, and the writer sorts the lot.
 */
import type { TelemetryEventInput } from '../ingest/match-input.ts';
import type { Knock } from './fighters.ts';
import { planHazards, type ZoneCause } from './hazards.ts';
import type { Random } from './random.ts';
import { emitAmbient } from './telemetry-ambient.ts';
import { emitCrates, planCrates } from './telemetry-care-packages.ts';
import { emitKnock } from './telemetry-combat.ts';
import { emitDeaths } from './telemetry-deaths.ts';
import { emitHits } from './telemetry-hits.ts';
import { planKits } from './telemetry-kit.ts';
import { emitEnd, emitLobby } from './telemetry-lobby.ts';
import { emitLoot } from './telemetry-loot.ts';
import { emitSupplies } from './telemetry-supplies.ts';
import { WeaponTally } from './telemetry-tally.ts';
import { emitPositions } from './telemetry-positions.ts';
import { emitTrips } from './telemetry-travel.ts';
import type { TelemetryText } from './telemetry-sinks.ts';
import { TelemetryWriter, type TelemetryInput } from './telemetry-writer.ts';
import { emitZone } from './telemetry-zone.ts';
import { planTravel } from './travel-plan.ts';

export type { TelemetryInput } from './telemetry-writer.ts';
export type { TelemetryText } from './telemetry-sinks.ts';

/** Builds the events of one match, LogMatchDefinition first, then in time order. */
export function buildTelemetry(random: Random, input: TelemetryInput): TelemetryEventInput[] {
  const t = new TelemetryWriter(random, input);
  tellMatch(t);
  return t.finish();
}

/**
 * The same match's telemetry as its file's JSON text, with the events ingest reads: what
 * `buildTelemetry` returns serialized, for a fraction of the memory held meanwhile.
 */
export function buildTelemetryText(random: Random, input: TelemetryInput): TelemetryText {
  const t = new TelemetryWriter(random, input, true);
  tellMatch(t);
  return t.finishText();
}

/** Plans the match's story and writes every part of it through `t`. */
function tellMatch(t: TelemetryWriter): void {
  const { world, random, input } = t;
  const { battle, arena } = input;
  let causes: ReadonlyMap<number, ZoneCause> = new Map();
  if (world.zone) {
    const hazards = planHazards(
      random,
      input.map,
      world.zone,
      battle.deaths,
      input.hazards,
      (v, at) => world.position(v, at),
    );
    world.bombardments = hazards.bombardments;
    for (const [victim, cause] of hazards.causes)
      if (cause === 'bluezone') world.blueVictims.set(victim, null);
    causes = hazards.causes;
  }
  const trips = planTravel(t);
  const kits = planKits(t);
  const crates = planCrates(t, kits);
  const tally = new WeaponTally();

  emitLobby(t);
  emitZone(t);
  for (const f of t.fighters) {
    const i = f.index;
    emitPositions(t, i, trips[i]!);
    emitTrips(t, i, trips[i]!, kits);
    emitLoot(t, i, kits[i]!);
    emitSupplies(t, i);
    emitAmbient(t, i, i < 4 ? i : undefined);
  }
  emitCrates(t, crates);
  emitHits(t, kits, tally);
  const knockEnds = new Map<Knock, number>();
  for (const d of battle.deaths) if (d.knock) knockEnds.set(d.knock, d.at);
  let firstRevive: Knock | undefined;
  for (const knock of battle.knocks)
    if (knock.revive) {
      firstRevive = knock;
      break;
    }
  for (const knock of battle.knocks)
    emitKnock(t, knock, kits, knockEnds.get(knock) ?? knock.at, knock === firstRevive);
  emitDeaths(t, kits, causes);
  emitEnd(t, tally, individualRanks(t, arena));
}

const latestFirst = (a: number, b: number): number => b - a;

/** Everyone's individual placement: 1 for the survivors, then by how long they lasted. */
function individualRanks(t: TelemetryWriter, arena: boolean): number[] {
  const ranks: number[] = [];
  if (arena) {
    for (const s of t.input.stats) ranks.push(s.killPlace);
    return ranks;
  }
  const times: number[] = [];
  for (const f of t.fighters) times.push(f.diedAt ?? Infinity);
  times.sort(latestFirst);
  // 1 + how many lasted longer: the index of the first time not after one's own, in that order.
  for (const f of t.fighters) {
    if (f.diedAt === null) {
      ranks.push(1);
      continue;
    }
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! > f.diedAt) lo = mid + 1;
      else hi = mid;
    }
    ranks.push(1 + lo);
  }
  return ranks;
}
