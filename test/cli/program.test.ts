import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProgram } from '../../src/cli/program.ts';
import { runCliIn } from '../helpers/cli.ts';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { buildApp } from '../../src/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { SERVICE_VERSION } from '../../src/version.ts';
import { jobState } from '../../src/store/job-locks.ts';

const freshDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-cli-'));

test('keys create prints the key alone on its last line, and that key authorizes requests', async () => {
  const dir = freshDir();
  try {
    const created = await runCliIn(dir, 'keys', 'create', '--name', 'ci', '--rpm', '25');
    const key = created.out.at(-1)!;
    assert.match(key, /^gd_[A-Za-z0-9_-]{40}$/);
    assert.match(created.out[0]!, /25 requests\/minute/);

    const listed = await runCliIn(dir, 'keys', 'list');
    assert.equal(listed.out.length, 1);
    assert.ok(!listed.out[0]!.includes(key), 'the key itself is never listed');
    const id = listed.out[0]!.split('\t')[0]!;

    const runtime = await openRuntime(loadConfig({ DATA_DIR: dir }));
    const app = await buildApp({ ...runtime, logger: false });
    try {
      const ok = await app.inject({
        url: '/shards/pc-b/seasons',
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['x-ratelimit-limit'], '25');

      assert.deepEqual((await runCliIn(dir, 'keys', 'revoke', id)).out, [`Revoked ${id}`]);
      assert.equal((await runCliIn(dir, 'keys', 'revoke', 'key_unknown')).exitCode, 1);
      const app2 = await buildApp({ ...runtime, logger: false });
      const refused = await app2.inject({
        url: '/shards/pc-b/seasons',
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(refused.statusCode, 401);
      await app2.close();
    } finally {
      await app.close();
      await runtime.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('ingest reports each file, refuses bad input by field, and is idempotent', async () => {
  const dir = freshDir();
  try {
    const now = Date.now();
    const good = makeMatchInput({
      seed: 'cli',
      overrides: { createdAt: new Date(now - 3_600_000).toISOString() },
    });
    const bad = makeMatchInput({
      seed: 'cli-bad',
      overrides: { createdAt: new Date(now - 3_600_000).toISOString() },
    });
    (bad.rosters[0]!.participants[0]!.stats as { kills: unknown }).kills = 'many';
    const inbox = path.join(dir, 'inbox');
    fs.mkdirSync(inbox);
    fs.writeFileSync(path.join(inbox, 'a-good.json'), JSON.stringify(good));
    fs.writeFileSync(path.join(inbox, 'b-bad.json'), JSON.stringify(bad));

    const first = await runCliIn(dir, 'ingest', inbox);
    assert.equal(first.exitCode, 1, 'a refused file fails the command');
    assert.match(
      first.out.find((line) => line.includes(good.id))!,
      /^ingested /,
    );
    assert.match(first.err.join('\n'), /b-bad\.json: .*rosters\/0\/participants\/0\/stats\/kills/);

    const runtime = await openRuntime(loadConfig({ DATA_DIR: dir }));
    try {
      for (const job of ['leaderboards', 'samples']) {
        assert.equal(
          (await jobState(runtime.store.db, job))?.rebuildRequested,
          true,
          `${job} rebuilds after the load`,
        );
      }
    } finally {
      await runtime.close();
    }

    const again = await runCliIn(dir, 'ingest', path.join(inbox, 'a-good.json'));
    assert.equal(again.exitCode, 0);
    assert.match(again.out[0]!, /^unchanged /);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('ingest takes recorded documents with --platform and --recorded-at', async () => {
  const dir = freshDir();
  try {
    const clanId = 'clan.0123456789abcdef0123456789abcdef';
    const file = path.join(dir, 'clan.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        data: {
          type: 'clan',
          id: clanId,
          attributes: { clanName: 'Owls', clanTag: 'OWL', clanLevel: 3, clanMemberCount: 40 },
        },
      }),
    );
    const refused = await runCliIn(dir, 'ingest', file);
    assert.equal(refused.exitCode, 1);
    assert.match(refused.err[0]!, /platform: .*--platform/);
    const recordedAt = new Date(Date.now() - 60_000).toISOString();
    const ingested = await runCliIn(
      dir,
      'ingest',
      file,
      '--platform',
      'steam',
      '--recorded-at',
      recordedAt,
    );
    assert.equal(ingested.exitCode, 0);
    assert.equal(ingested.out[0], `ingested  recorded clan ${clanId} (${file})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('jobs run names the known jobs and runs one', async () => {
  const dir = freshDir();
  try {
    const unknown = await runCliIn(dir, 'jobs', 'run', 'nope');
    assert.equal(unknown.exitCode, 1);
    assert.match(unknown.err[0]!, /seasons.*retention.*leaderboards.*samples/);
    const ran = await runCliIn(dir, 'jobs', 'run', 'retention');
    assert.equal(ran.exitCode, 0);
    assert.match(ran.out[0]!, /^retention: deleted 0 matches/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a mistyped command is an unknown command with the closest one suggested; --version prints the version', async () => {
  const dir = freshDir();
  try {
    await assert.rejects(
      runCliIn(dir, 'ingset', 'file.json'),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'commander.unknownCommand');
        assert.match(error.message, /unknown command 'ingset'/);
        return true;
      },
    );

    const out: string[] = [];
    const err: string[] = [];
    const program = buildProgram(
      { env: {}, out: (line) => out.push(line), err: (line) => err.push(line), interactive: false },
      async () => {},
    ).exitOverride();
    await assert.rejects(program.parseAsync(['node', 'gamedata', 'ingset']));
    assert.match(err.join('\n'), /Did you mean ingest\?/);
    await assert.rejects(program.parseAsync(['node', 'gamedata', '--version']), {
      code: 'commander.version',
    });
    assert.deepEqual(out, [SERVICE_VERSION]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('nothing but --version can come before a command, and `jobs` takes no option of its own', () => {
  // src/main.ts lowers `gamedata jobs run` before it loads the command line, by reading
  // argv[2..3]: that sees every way of asking for a run only while this holds.
  const program = buildProgram(
    { env: {}, out: () => {}, err: () => {}, interactive: false },
    async () => {},
  );
  assert.deepEqual(
    program.options.map((option) => option.long),
    ['--version'],
  );
  const jobs = program.commands.find((command) => command.name() === 'jobs');
  assert.deepEqual(jobs?.options, []);
  assert.ok(jobs?.commands.some((command) => command.name() === 'run'));
});
