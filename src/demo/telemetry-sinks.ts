/**
 * Where a match's telemetry writer puts its events: kept as objects (tests, match files), or
 * serialized as they come, keeping as objects only the events ingest reads (the demo's load),
 * so that the rest die young instead of staying alive until the match is stored.
 */
import type { TelemetryEventInput } from '../ingest/match-input.ts';
import { TALLIED_EVENT_TYPES } from '../ingest/mastery-telemetry.ts';

/** A match's telemetry file as the demo's load hands it to ingest. */
export interface TelemetryText {
  /** The file: `JSON.stringify` of every event in file order, byte for byte. */
  json: Buffer;
  /** The events of the kinds in TALLIED_EVENT_TYPES, in file order. */
  events: TelemetryEventInput[];
}

/** Every event as an object. */
export class EventObjects {
  private readonly events: TelemetryEventInput[] = [];

  add(event: TelemetryEventInput): void {
    this.events.push(event);
  }

  /** `first`, then the events at the emit indices of `order`. */
  inOrder(order: Float64Array, first: TelemetryEventInput): TelemetryEventInput[] {
    const { events } = this;
    const out: TelemetryEventInput[] = new Array(order.length + 1);
    out[0] = first;
    for (let k = 0; k < order.length; k++) out[k + 1] = events[order[k]!]!;
    return out;
  }
}

/**
 * The scratch buffer of the last finished match, taken by the next one: a match's texts are
 * written as they come into bytes outside V8's heap, so that they die young rather than survive
 * scavenges into the old generation until the match ends (and one buffer serves match after
 * match rather than a new one each time). Kept only up to this size (bytes).
 */
let spareScratch: Buffer | null = null;
const KEPT_SCRATCH_BYTES = 8 * 1024 * 1024;
const FIRST_SCRATCH_BYTES = 1024 * 1024;

/** Every event's JSON, and the events ingest reads as objects. */
export class EventTexts {
  private scratch: Buffer;
  /** Bytes of `scratch` written. */
  private used = 0;
  /** Where each event's text starts and ends in `scratch`, by emit index: [start, end, …]. */
  private readonly bounds: number[] = [];
  /** The events ingest reads, null for the others: by emit index. */
  private readonly events: Array<TelemetryEventInput | null> = [];

  constructor() {
    this.scratch = spareScratch ?? Buffer.allocUnsafe(FIRST_SCRATCH_BYTES);
    spareScratch = null;
  }

  add(event: TelemetryEventInput): void {
    const text = JSON.stringify(event);
    // A UTF-16 code unit takes at most 3 bytes of UTF-8, so this much room always fits it.
    const room = text.length * 3;
    if (this.scratch.length - this.used < room) this.grow(room);
    const start = this.used;
    this.used += this.scratch.write(text, start);
    this.bounds.push(start, this.used);
    this.events.push(TALLIED_EVENT_TYPES.has(event._T) ? event : null);
  }

  /**
   * The file of `first`, then the events at the emit indices of `order` (each index once): the
   * texts' bytes copied in that order into one buffer of the file's size. Ends the sink.
   */
  inOrder(order: Float64Array, first: TelemetryEventInput): TelemetryText {
    const { scratch, bounds, events } = this;
    const head = Buffer.from(JSON.stringify(first));
    // `[`, the head, a comma before each event, `]`.
    const json = Buffer.allocUnsafe(2 + head.length + order.length + this.used);
    json[0] = OPEN_ARRAY;
    let at = 1 + head.copy(json, 1);
    const kept: TelemetryEventInput[] = [];
    for (let k = 0; k < order.length; k++) {
      const index = order[k]!;
      json[at++] = COMMA;
      at += scratch.copy(json, at, bounds[2 * index]!, bounds[2 * index + 1]!);
      const event = events[index];
      if (event) kept.push(event);
    }
    json[at++] = CLOSE_ARRAY;
    if (at !== json.length) throw new Error('EventTexts: every event must be in the order once');
    if (scratch.length <= KEPT_SCRATCH_BYTES) spareScratch = scratch;
    this.scratch = Buffer.alloc(0);
    this.used = 0;
    return { json, events: kept };
  }

  private grow(room: number): void {
    const grown = Buffer.allocUnsafe(Math.max(2 * this.scratch.length, this.used + room));
    this.scratch.copy(grown, 0, 0, this.used);
    this.scratch = grown;
  }
}

const OPEN_ARRAY = 0x5b;
const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;
