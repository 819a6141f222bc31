/**
 * A generated match's telemetry sorted for the assertions: events by type, times in epoch ms,
 * participants by account id, and the match's time window.
 */
import type { MatchInput, ParticipantInput } from '../../src/ingest/match-input.ts';
import { participantsOf } from './match-invariants.ts';

export type Event = Record<string, unknown> & { _T: string; _D: string };
export type Location = { x: number; y: number; z: number };
export type Character = {
  name: string;
  teamId: number;
  accountId: string;
  health: number;
  ranking: number;
  location: Location;
  isInBlueZone: boolean;
  isDBNO: boolean;
};
export type Item = {
  itemId: string;
  category: string;
  subCategory: string;
  attachedItems: string[];
};

export interface TelemetryIndex {
  match: MatchInput;
  events: Event[];
  /** Every event but LogMatchDefinition, in file order. */
  rest: Event[];
  byType: Map<string, Event[]>;
  participants: ParticipantInput[];
  byId: Map<string, ParticipantInput>;
  teamOf: Map<string, number>;
  /** Epoch ms: createdAt, end (createdAt + duration), LogMatchStart. */
  start: number;
  end: number;
  matchStart: number;
  of(type: string): Event[];
  at(e: Event): number;
}

export function indexTelemetry(match: MatchInput): TelemetryIndex {
  const events = (match.telemetry ?? []) as Event[];
  const byType = new Map<string, Event[]>();
  for (const e of events) {
    const list = byType.get(e._T);
    if (list) list.push(e);
    else byType.set(e._T, [e]);
  }
  const participants = participantsOf(match);
  const start = Date.parse(match.createdAt);
  const of = (type: string): Event[] => byType.get(type) ?? [];
  return {
    match,
    events,
    rest: events.slice(1),
    byType,
    participants,
    byId: new Map(participants.map((p) => [p.playerId, p])),
    teamOf: new Map(
      match.rosters.flatMap((r) => r.participants.map((p) => [p.playerId, r.teamId] as const)),
    ),
    start,
    end: start + match.duration * 1000,
    matchStart: Date.parse(of('LogMatchStart')[0]?._D ?? match.createdAt),
    of,
    at: (e) => Date.parse(e._D),
  };
}

/** Sums a number per account id over events. */
export function tally(
  events: readonly Event[],
  pick: (e: Event) => Array<readonly [string, number]>,
): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of events) for (const [id, n] of pick(e)) m.set(id, (m.get(id) ?? 0) + n);
  return m;
}

/** |a − b| is within rounding (telemetry numbers are quarter-rounded floats). */
export const near = (a: number, b: number, tolerance = 0.01): boolean =>
  Math.abs(a - b) <= tolerance;
