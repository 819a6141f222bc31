/**
 * A blob store in an S3 bucket (AWS S3 or any S3-compatible store), under a key prefix. Objects
 * are written with `Content-Encoding: gzip` and `Content-Type: application/json`, so the bucket —
 * or a CDN in front of it — serves a telemetry file at its public URL exactly as the API does.
 * Credentials and region come from the AWS SDK's default provider chain (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE, AWS_REGION, …).
 */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BlobStoreLocation } from '../config.ts';
import { BlobStoreUnavailableError, type BlobStore } from './blob-store.ts';

export type S3Location = Extract<BlobStoreLocation, { kind: 's3' }>;

/** Tries of one request (the SDK's standard retry, with backoff): a blip is absorbed, an outage is not waited out. */
const MAX_ATTEMPTS = 2;
/** An S3-compatible store without regions still needs one named to sign requests. */
const FALLBACK_REGION = 'us-east-1';

/**
 * An S3 client bounded in time: connecting and waiting for an answer each take at most
 * `timeoutMs` per attempt, and a transfer that stalls 4× as long is cut (not shorter, so a
 * client reading a download slowly is not cut off while the stream waits on it). Checksums only
 * where the API requires them: the SDK's newer default (a CRC on every upload, aws-chunked
 * bodies) is refused by several S3-compatible stores.
 */
export async function createS3Client(location: S3Location): Promise<S3Client> {
  const options = {
    ...(location.endpoint === null ? {} : { endpoint: location.endpoint }),
    forcePathStyle: location.forcePathStyle,
    maxAttempts: MAX_ATTEMPTS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      connectionTimeout: location.timeoutMs,
      requestTimeout: location.timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: 4 * location.timeoutMs,
    },
  } as const;
  const client = new S3Client(options);
  try {
    await client.config.region();
    return client;
  } catch {
    client.destroy();
    return new S3Client({ ...options, region: FALLBACK_REGION });
  }
}

/** `http://minio:9000`, or `AWS S3 (eu-west-1)`: where the bucket was looked for, for messages. */
async function describeEndpoint(client: S3Client, location: S3Location): Promise<string> {
  return location.endpoint ?? `AWS S3 (${await client.config.region()})`;
}

/** One line on what went wrong with a request: the status and the SDK's error name and message. */
function describeFailure(error: unknown): string {
  const failure = error as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = failure.$metadata?.httpStatusCode;
  const what = [failure.name, failure.message].filter((part) => part && part !== 'UnknownError');
  return `${status === undefined ? '' : `HTTP ${status} `}${what.join(': ') || 'no answer'}`.trim();
}

/**
 * Checks at start-up that the bucket exists and our credentials may use it (HeadBucket), so a
 * misconfiguration is one clear line before serving, not a 503 on the first telemetry request.
 */
export async function checkBucket(client: S3Client, location: S3Location): Promise<void> {
  const where = `bucket "${location.bucket}" at ${await describeEndpoint(client, location)}`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: location.bucket }));
  } catch (error) {
    const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    const status = failure.$metadata?.httpStatusCode;
    let reason: string;
    if (status === 404) reason = 'the bucket does not exist';
    else if (status === 403)
      reason =
        'access refused: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) and the bucket policy';
    else if (status === 301 || failure.name === 'PermanentRedirect')
      reason = 'the bucket is in another region: set AWS_REGION to it';
    else if (failure.name === 'CredentialsProviderError')
      reason = 'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
    else reason = `the object store did not answer (${describeFailure(error)})`;
    throw new BlobStoreUnavailableError('open', `cannot use ${where}: ${reason}`);
  }
}

/** The blob store over an opened client; keys live under `<prefix>/` in the bucket. */
export function s3BlobStore(client: S3Client, location: S3Location): BlobStore {
  const Bucket = location.bucket;
  const objectKey = (key: string): string =>
    location.prefix === '' ? key : `${location.prefix}/${key}`;
  const unavailable = (operation: 'put' | 'get' | 'delete', key: string, error: unknown) =>
    new BlobStoreUnavailableError(
      operation,
      `bucket ${Bucket}: ${operation} ${objectKey(key)} failed: ${describeFailure(error)}`,
    );
  const isMissing = (error: unknown): boolean =>
    (error as { name?: string }).name === 'NoSuchKey' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

  return {
    async put(key, bytes) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: objectKey(key),
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: 'application/json',
            ContentEncoding: 'gzip',
            // The store refuses a body that arrived damaged instead of keeping it.
            ContentMD5: crypto.createHash('md5').update(bytes).digest('base64'),
          }),
        );
      } catch (error) {
        throw unavailable('put', key, error);
      }
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        const stream = object.Body as Readable;
        if (object.ContentLength === undefined) {
          stream.destroy();
          throw new Error('answer without Content-Length');
        }
        return { stream, size: object.ContentLength };
      } catch (error) {
        // A bucket policy without s3:ListBucket answers 403 for a missing key: grant it (README).
        if (isMissing(error)) return null;
        throw unavailable('get', key, error);
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (error) {
        if (!isMissing(error)) throw unavailable('delete', key, error);
      }
    },
  };
}
