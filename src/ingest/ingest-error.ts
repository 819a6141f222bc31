/**
 * What ingest refuses, one class per reason, so each way data enters can answer in its own
 * terms (the CLI prints the message; the HTTP routes map each class to a status).
 */

/** Input refused by ingest: `field` is the path of the offending value. */
export class IngestError extends Error {
  /**
   * @param field path of the offending value, `/`-separated (`rosters/2/participants/0/stats/kills`);
   *   empty for the input as a whole
   * @param message what is wrong with it; the error's message is `<field>: <message>`
   */
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field || 'match'}: ${message}`);
    this.name = 'IngestError';
  }
}

/** Input over the configured size limit, counted decompressed (a gzip bomb ends here). */
export class IngestTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IngestTooLargeError';
  }
}

/** Telemetry for a match that already has a different telemetry file: never replaced. */
export class TelemetryConflictError extends Error {
  constructor(readonly matchId: string) {
    super(
      `match ${matchId} already has a different telemetry file; a stored telemetry file is never replaced`,
    );
    this.name = 'TelemetryConflictError';
  }
}

/** Telemetry for a match that is not stored (ingest the match first). */
export class MatchNotStoredError extends Error {
  constructor(readonly matchId: string) {
    super(`no match ${matchId} is stored; ingest the match before its telemetry`);
    this.name = 'MatchNotStoredError';
  }
}
