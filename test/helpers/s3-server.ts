/**
 * A real S3 API (s3rver, from npm) on 127.0.0.1 for tests, in a child process: stopped with
 * kill -9, frozen with SIGSTOP, started again on the same port with the same objects. Its
 * credentials are `S3RVER` / `S3RVER`; it verifies that a request's access key is known.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

const SCRIPT = path.join(import.meta.dirname, 's3rver-process.js');
/** A start slower than this is a broken test machine, not a slow one. */
const START_TIMEOUT_MS = 15_000;

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Points the AWS SDK's default provider chain of this test process at s3rver's credentials, and
 * keeps it off the network: no instance metadata lookups, no profile files of the machine.
 */
export function useS3rverCredentials(): void {
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_CONFIG_FILE = path.join(os.tmpdir(), 'gamedata-no-aws-config');
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(os.tmpdir(), 'gamedata-no-aws-credentials');
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
}

export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Stops the server at once (kill -9); objects stay in its directory. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same objects. */
  restart(): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the server: connections open, nothing answered. */
  freeze(): void;
  thaw(): void;
  /** An SDK client of the test itself, to look at what the service stored. */
  client: S3Client;
  /** The stored object's headers, or null when there is none. */
  head(
    bucket: string,
    key: string,
  ): Promise<{ contentEncoding?: string; contentType?: string } | null>;
  /** Every key in the bucket, sorted. */
  list(bucket: string): Promise<string[]>;
  close(): Promise<void>;
}

async function spawnServer(
  port: number,
  directory: string,
  buckets: string[],
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [SCRIPT, String(port), directory, ...buckets], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const bound = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start')), START_TIMEOUT_MS);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(Number(line));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}`));
    });
  });
  lines.close();
  return { child, port: bound };
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  // Node 20: the SDK's multi-line notice that its later versions need Node 22, not a test failure.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-s3rver-'));
  const started = await spawnServer(0, directory, buckets);
  const port = started.port;
  let child = started.child;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    client,
    kill: () => killChild(child),
    async restart() {
      await killChild(child);
      ({ child } = await spawnServer(port, directory, buckets));
    },
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    async head(bucket, key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { contentEncoding: head.ContentEncoding, contentType: head.ContentType };
      } catch (error) {
        if (
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
        )
          return null;
        throw error;
      }
    },
    async list(bucket) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) keys.push(object.Key!);
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async close() {
      client.destroy();
      child.kill('SIGCONT');
      await killChild(child);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
