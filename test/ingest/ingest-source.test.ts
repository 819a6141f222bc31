import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ingestPath } from '../../src/ingest/ingest-source.ts';
import { openPreparePool } from '../../src/ingest/prepare-pool.ts';
import { resolveShard, VENDOR_SHARD_ALIASES } from '../../src/domain/shards.ts';
import {
  renderMatchDocument,
  renderParticipantStats,
} from '../../src/presenters/match-document.ts';
import { testDatabases } from '../helpers/stores.ts';
import { openIngestContext } from '../helpers/ingest-deps.ts';
import { makeMatchInput, participantsOf, sampleTelemetry, testUuid } from '../helpers/matches.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';

/** The match as a recorded document of the real service (shard `steam`, no region named). */
function recorded(input: MatchInput): string {
  const members = input.rosters.map((roster, r) =>
    roster.participants.map((_, p) => testUuid(`${input.id}:${r}:${p}`)),
  );
  return renderMatchDocument(
    {
      id: input.id,
      platform: input.platformShard,
      createdAt: Date.parse(input.createdAt),
      duration: input.duration,
      gameMode: input.gameMode,
      mapName: input.mapName,
      matchType: input.matchType,
      isCustomMatch: input.isCustomMatch,
      seasonState: 'progress',
      titleId: 'bluehole-pubg',
      assetId: testUuid(`${input.id}:asset`),
      assetCreatedAt: Date.parse(input.createdAt) + 1_900_000,
      hasTelemetry: true,
      rosters: input.rosters.map((roster, r) => ({
        id: testUuid(`${input.id}:roster:${r}`),
        teamId: roster.teamId,
        rank: roster.rank,
        won: roster.won,
        participantIds: members[r]!,
      })),
      participants: participantsOf(input).map((p, i) => ({
        id: members.flat()[i]!,
        platform: input.platformShard,
        statsJson: renderParticipantStats(p.name, p.playerId, p.stats),
      })),
    },
    {
      shard: resolveShard('steam', VENDOR_SHARD_ALIASES)!,
      shardAliases: VENDOR_SHARD_ALIASES,
      publicBaseUrl: 'https://api.pubg.com',
      telemetryBaseUrl: 'https://telemetry-cdn.pubg.com',
    },
  );
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-ingest-source-'));
}

for (const database of testDatabases) {
  const name = (title: string): string => `[${database.name}] ${title}`;

  for (const workers of [0, 1]) {
    const how = workers === 0 ? '' : ', matches prepared by a worker thread';
    test(
      name(`a directory ingests file by file, one bad match stopping nothing${how}`),
      async () => {
        const ctx = await openIngestContext(database);
        const dir = tempDir();
        const pool = workers === 0 ? null : openPreparePool(workers, ctx.deps.config);
        try {
          const single = makeMatchInput({ seed: 'a' });
          const good = makeMatchInput({ seed: 'b1' });
          const bad = makeMatchInput({ seed: 'b2', overrides: { regionShard: 'console-a-eu' } });
          const document = makeMatchInput({ seed: 'c' });
          fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(single));
          const refusedAlone = { ...makeMatchInput({ seed: 'a2' }), regionShard: 'console-a-eu' };
          fs.writeFileSync(path.join(dir, 'a2.json'), JSON.stringify(refusedAlone));
          fs.writeFileSync(path.join(dir, 'b.json.gz'), zlib.gzipSync(JSON.stringify([good, bad])));
          fs.writeFileSync(path.join(dir, 'c.json'), recorded(document));
          fs.writeFileSync(
            path.join(dir, 'c.telemetry.json.gz'),
            zlib.gzipSync(
              JSON.stringify(sampleTelemetry(document.id, Date.parse(document.createdAt))),
            ),
          );
          fs.writeFileSync(path.join(dir, 'd.json'), '{"id": ');
          fs.writeFileSync(path.join(dir, 'notes.txt'), 'ignored');

          const seen: string[] = [];
          const results = await ingestPath(ctx.deps, dir, {
            onResult: (r) => seen.push(r.source),
            ...(pool ? { pool } : {}),
          });
          assert.deepEqual(
            results.map((r) => [path.basename(r.source), r.status]),
            [
              ['a.json', 'ingested'],
              ['a2.json', 'error'],
              ['b.json.gz[0]', 'ingested'],
              ['b.json.gz[1]', 'error'],
              ['c.json', 'ingested'],
              ['d.json', 'error'],
            ],
          );
          const alone = results[1]!;
          assert.ok(alone.status === 'error' && alone.message.startsWith('regionShard: '));
          assert.equal(alone.matchId, refusedAlone.id);
          assert.match(
            results[5]!.status === 'error' ? results[5]!.message : '',
            /not a readable JSON/,
          );
          assert.deepEqual(
            seen,
            results.map((r) => r.source),
          );
          const refused = results[3]!;
          assert.ok(
            refused.status === 'error' && refused.message.startsWith('regionShard: '),
            JSON.stringify(refused),
          );
          assert.equal(refused.matchId, bad.id);
          const region = await ctx.deps.store.db
            .selectFrom('matches')
            .select('region')
            .where('id', '=', document.id)
            .executeTakeFirstOrThrow();
          assert.equal(region.region, 'pc-eu', 'read from the sibling telemetry');
          assert.equal(ctx.blobs().length, 1);

          const again = await ingestPath(ctx.deps, path.join(dir, 'a.json'));
          assert.deepEqual(again, [
            { source: path.join(dir, 'a.json'), status: 'unchanged', matchId: single.id },
          ]);
        } finally {
          await pool?.close();
          await ctx.close();
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  }

  test(name('a single recorded document takes a region and a telemetry file'), async () => {
    const ctx = await openIngestContext(database);
    const dir = tempDir();
    try {
      const match = makeMatchInput({ seed: 'single' });
      const file = path.join(dir, 'match.json');
      fs.writeFileSync(file, recorded(match));
      const telemetry = path.join(dir, 'events.json');
      fs.writeFileSync(
        telemetry,
        JSON.stringify(sampleTelemetry(match.id, Date.parse(match.createdAt))),
      );

      const [withoutRegion] = await ingestPath(ctx.deps, file);
      assert.equal(withoutRegion!.status, 'error');
      const [result] = await ingestPath(ctx.deps, file, { region: 'pc-na', telemetry });
      assert.deepEqual(result, { source: file, status: 'ingested', matchId: match.id });
      const region = await ctx.deps.store.db
        .selectFrom('matches')
        .select('region')
        .executeTakeFirstOrThrow();
      assert.equal(region.region, 'pc-eu', 'the telemetry names the region');
      assert.equal(ctx.blobs().length, 1);

      const [missing] = await ingestPath(ctx.deps, path.join(dir, 'absent.json'));
      assert.equal(missing!.status, 'error');
      const [directoryWithTelemetry] = await ingestPath(ctx.deps, dir, { telemetry });
      assert.equal(directoryWithTelemetry!.status, 'error');
    } finally {
      await ctx.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
