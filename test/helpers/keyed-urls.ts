/**
 * A small store and the URLs of every keyed document on it, for tests that compare answers
 * (headers and bodies) with the document cache on and off.
 */
import { accountId, makeMatchInput } from './matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { TestApp } from './app.ts';

export const KEYED_HERO = accountId(0);

/** Ingests two matches an hour and two hours before the test clock's now. */
export async function ingestKeyedFixture(t: TestApp): Promise<void> {
  const now = t.clock.now();
  for (const [seed, ago] of [
    ['keyed-a', 2 * 3_600_000],
    ['keyed-b', 3_600_000],
  ] as const) {
    const createdAt = new Date(now - ago).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await ingestMatch(
      { store: t.store, blobs: t.blobs, config: t.config, clock: t.clock },
      makeMatchInput({ seed, telemetry: true, overrides: { createdAt } }),
    );
  }
}

/** The current PC season's id, read from the service. */
export async function currentPcSeason(t: TestApp): Promise<string> {
  const response = await t.app.inject({ url: '/shards/pc-b/seasons', headers: t.auth });
  const list = response.json() as {
    data: { id: string; attributes: { isCurrentSeason: boolean } }[];
  };
  return list.data.find((season) => season.attributes.isCurrentSeason)!.id;
}

/** Every keyed document route, as URLs on the fixture (found and not found). */
export function keyedUrls(season: string): string[] {
  return [
    `/shards/pc-b/players/${KEYED_HERO}`,
    `/shards/pc-eu/players/${KEYED_HERO}`,
    `/shards/pc-b/players?filter[playerNames]=Player0,Player1`,
    `/shards/pc-b/players?filter[playerIds]=${KEYED_HERO}`,
    `/shards/pc-b/players?filter[playerNames]=Nobody`,
    `/shards/pc-b/players/${accountId('nobody')}`,
    `/shards/pc-b/players/${KEYED_HERO}/seasons/${season}`,
    `/shards/pc-b/players/${KEYED_HERO}/seasons/lifetime`,
    `/shards/pc-b/seasons/${season}/gameMode/duo/players?filter[playerIds]=${KEYED_HERO}`,
    `/shards/pc-b/players/${KEYED_HERO}/seasons/${season}/ranked`,
    `/shards/pc-b/players/${KEYED_HERO}/weapon_mastery`,
    `/shards/pc-b/players/${KEYED_HERO}/survival_mastery`,
    `/shards/pc-b/clans/clan.00000000000000000000000000000000`,
    `/shards/pc-b/seasons`,
    `/shards/pc-eu/seasons`,
    `/shards/pc-eu/samples`,
    `/shards/pc-b/leaderboards/duo`,
    `/tournaments`,
    `/tournaments/nope`,
  ];
}
