/**
 * What the ingest endpoints answer: the match's resource identifier (JSON:API) with what the
 * request did in `meta` — `result` (`ingested`, `attached` or `unchanged`) and `telemetry`
 * (whether the match's telemetry file is stored, i.e. whether its document names an asset).
 */

/** The ingest outcome the document reports. */
export interface IngestOutcome {
  matchId: string;
  status: 'ingested' | 'attached' | 'unchanged';
  telemetry: boolean;
}

/** `{"data":{"type":"match","id":…},"meta":{"result":…,"telemetry":…}}` */
export function renderIngestResult(outcome: IngestOutcome): string {
  return JSON.stringify({
    data: { type: 'match', id: outcome.matchId },
    meta: { result: outcome.status, telemetry: outcome.telemetry },
  });
}
