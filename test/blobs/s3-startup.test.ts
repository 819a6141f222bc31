/**
 * The `gamedata` process with its telemetry in a bucket of a real S3 API (s3rver on 127.0.0.1):
 * a missing bucket or credentials the store refuses stop it at start with one clear line (no
 * stack trace), and a working bucket takes a CLI ingest, after which the process exits.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server, S3RVER_CREDENTIALS, type S3Server } from '../helpers/s3-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUCKET = 'telemetry';
/** A CLI run slower than this hangs on something (an open socket, a retry loop). */
const RUN_TIMEOUT_MS = 60_000;

let s3: S3Server;
let dataDir: string;
before(async () => {
  s3 = await startS3Server([BUCKET]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-s3-cli-'));
});
after(async () => {
  await s3.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `gamedata <args>` from the sources with only the variables given (plus PATH). */
function gamedata(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      {
        cwd: ROOT,
        timeout: RUN_TIMEOUT_MS,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          RETENTION_DAYS: '0',
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
          AWS_EC2_METADATA_DISABLED: 'true',
          AWS_CONFIG_FILE: path.join(dataDir, 'no-aws-config'),
          AWS_SHARED_CREDENTIALS_FILE: path.join(dataDir, 'no-aws-credentials'),
          // Node 20: the SDK's one-time notice that later SDK versions need Node 22.
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

function assertOneLine(stderr: string, ...expected: RegExp[]): void {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  for (const pattern of expected) assert.match(lines[0]!, pattern);
}

test('a missing bucket stops the start with one line naming the bucket and the endpoint', async () => {
  const run = await gamedata(['keys', 'list'], { BLOB_STORE_URL: 's3://no-such-bucket/prefix' });
  assert.equal(run.code, 1);
  assertOneLine(
    run.stderr,
    /bucket "no-such-bucket"/,
    new RegExp(s3.endpoint.replace(/\./g, '\\.')),
    /does not exist/,
  );
});

test('credentials the store refuses stop the start with one line saying so', async () => {
  const run = await gamedata(['keys', 'list'], {
    BLOB_STORE_URL: `s3://${BUCKET}`,
    AWS_ACCESS_KEY_ID: 'NOT-A-KEY',
  });
  assert.equal(run.code, 1);
  assertOneLine(
    run.stderr,
    new RegExp(`bucket "${BUCKET}"`),
    /access refused/,
    /AWS_ACCESS_KEY_ID/,
  );
});

test('a CLI ingest puts the telemetry in the bucket and the process exits', async () => {
  const run = await gamedata(['ingest', 'schemas/example-match.json'], {
    BLOB_STORE_URL: `s3://${BUCKET}/cli`,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /1 ingested, 0 given their telemetry, 0 unchanged, 0 refused/);
  const keys = await s3.list(BUCKET);
  assert.equal(keys.length, 1);
  assert.match(
    keys[0]!,
    /^cli\/bluehole-pubg\/pc-b\/2026\/11\/20\/\d\d\/\d\d\/[^/]+-telemetry\.json$/,
  );
});
