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
