/**
 * One listening service with something in every endpoint a published client library calls: a
 * squad match of four teams of four (telemetry included) played the day before the test clock's
 * day, so it is in the latest sample list and the current season's leaderboards; a tournament
 * with one match; and a key allowed one request a minute, to see a 429 as clients see it.
 */
import assert from 'node:assert/strict';
import type { TestDatabase } from './stores.ts';
import { createTestApp, type TestApp } from './app.ts';
import { freePort } from './server-process.ts';
import { makeMatchInput } from './matches.ts';
import { wireGet } from './wire-request.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import type { MatchInput, ParticipantInput } from '../../src/ingest/match-input.ts';

export interface ClientWorld {
  t: TestApp;
  port: number;
  /** The service's base URL, as a library's base URL setting would hold it. */
  base: string;
  match: MatchInput;
  seats: ParticipantInput[];
  /** The current season's id, as the seasons list names it. */
  seasonId: string;
  tournamentId: string;
  tournamentMatchId: string;
  /** A key with a budget of one request a minute. */
  slowKey: string;
  close(): Promise<void>;
}

export async function openClientWorld(database: TestDatabase, seed: string): Promise<ClientWorld> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp(database, { PUBLIC_BASE_URL: base });
  const match = makeMatchInput({
    seed,
    rosters: 4,
    playersPerRoster: 4,
    telemetry: true,
    overrides: { createdAt: '2026-11-19T12:00:00Z' },
  });
  await ingestMatch(t, match);
  const tournamentId = 'eu-clients26';
  const tournamentMatch = makeMatchInput({
    seed: `${seed}-tournament`,
    overrides: { platformShard: 'tournament', regionShard: 'pc-tournament', tournamentId },
  });
  await ingestMatch(t, tournamentMatch);
  await rebuildLeaderboards(t);
  await buildSamples(t);
  const { key: slowKey } = await createApiKey(t.store.db, {
    name: 'one a minute',
    ratePerMinute: 1,
    now: t.clock.now(),
  });
  await t.app.listen({ host: '127.0.0.1', port });
  const seasons = await wireGet(port, '/shards/steam/seasons', [
    ['Authorization', `Bearer ${t.apiKey}`],
  ]);
  const list = JSON.parse(seasons.text) as {
    data: Array<{ id: string; attributes: { isCurrentSeason: boolean } }>;
  };
  const current = list.data.find((season) => season.attributes.isCurrentSeason);
  assert.ok(current, 'the service has a current season');
  return {
    t,
    port,
    base,
    match,
    seats: match.rosters.flatMap((roster) => roster.participants),
    seasonId: current.id,
    tournamentId,
    tournamentMatchId: tournamentMatch.id,
    slowKey,
    close: () => t.close(),
  };
}
