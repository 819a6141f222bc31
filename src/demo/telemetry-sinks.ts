/**
 * Where a match's telemetry writer puts its events: kept as objects (tests, match files), or
 * serialized as they come, keeping as objects only the events ingest reads (the demo's load),
 * so that the rest die young instead of staying alive until the match is stored.
 */
import type { TelemetryEventInput } from '../ingest/match-input.ts';
import { joinJsonTexts } from '../ingest/telemetry-file.ts';
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

/** Every event's JSON, and the events ingest reads as objects. */
export class EventTexts {
  private readonly texts: string[] = [];
  /** The events ingest reads, null for the others: by emit index. */
  private readonly events: Array<TelemetryEventInput | null> = [];
  /** UTF-8 bytes of the texts. */
  private bytes = 0;

  add(event: TelemetryEventInput): void {
    const text = JSON.stringify(event);
    this.texts.push(text);
    this.bytes += Buffer.byteLength(text);
    this.events.push(TALLIED_EVENT_TYPES.has(event._T) ? event : null);
  }

  /**
   * The file of `first`, then the events at the emit indices of `order` (each index once), its
   * texts joined by joinJsonTexts: joining them into one string first costs several times as
   * much (about 9 ms for a 2 MB file, against under 1 ms).
   */
  inOrder(order: Float64Array, first: TelemetryEventInput): TelemetryText {
    const { texts, events } = this;
    const head = JSON.stringify(first);
    const ordered: string[] = new Array(order.length + 1);
    ordered[0] = head;
    const kept: TelemetryEventInput[] = [];
    for (let k = 0; k < order.length; k++) {
      const index = order[k]!;
      ordered[k + 1] = texts[index]!;
      const event = events[index];
      if (event) kept.push(event);
    }
    return { json: joinJsonTexts(ordered, Buffer.byteLength(head) + this.bytes), events: kept };
  }
}
