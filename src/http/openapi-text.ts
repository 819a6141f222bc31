/** The prose of the OpenAPI document: its introduction and the descriptions of its tags. */

export const OPENAPI_DESCRIPTION = `
A self-hosted, read-only game data service, wire-compatible with the public game data API its
client libraries were written for: point a client at this base URL and it works unchanged.

**Keys.** Players, seasons, stats, leaderboards, samples and tournaments need
\`Authorization: Bearer <API key>\` (\`npx gamedata keys create --name my-app\`). Matches,
telemetry, \`/status\` and the probes need none.

**Rate limits.** Each key has a per-minute budget. Keyed answers carry integer
\`X-Ratelimit-Limit\`, \`X-Ratelimit-Remaining\` and \`X-Ratelimit-Reset\` (UNIX seconds) with a
\`Date\`; over the budget the answer is a 429 with \`Retry-After\`.

**Media types.** Send \`Accept: application/vnd.api+json\` (or \`application/json\`, \`*/*\`, none);
\`Content-Type\` mirrors it, anything else is a 415. Every answer is gzipped when
\`Accept-Encoding\` allows it.

**Errors.** Every failure is a JSON:API error document, \`{"errors":[{"title","detail"}]}\`,
with its status; the detail says what was wrong.

**Retention.** Matches are served for \`RETENTION_DAYS\` (14 by default) after they were
played; player match lists, stats match lists and samples cover the same window.
`.trim();

export const OPENAPI_TAGS = [
  { name: 'players', description: 'Players by name or account id, with their recent matches.' },
  { name: 'seasons', description: "A platform's seasons: exactly one is current." },
  {
    name: 'stats',
    description: 'Season and lifetime stats of players, per game mode, with the matches counted.',
  },
  {
    name: 'matches',
    description: 'Matches with rosters, participants and the telemetry asset: no key, no limit.',
  },
  { name: 'telemetry', description: 'The event files match assets link to, gzipped.' },
  {
    name: 'leaderboards',
    description: "The current season's best players per game mode, rebuilt on schedule.",
  },
  { name: 'samples', description: 'Random matches of one day of a region.' },
  { name: 'tournaments', description: 'Tournaments and their matches.' },
  { name: 'clans', description: 'Clans with their level and member count.' },
  {
    name: 'mastery',
    description: 'Weapon and survival mastery of players, derived from their matches.',
  },
  { name: 'service', description: 'Status, probes, this document and metrics.' },
];
