import crypto from 'node:crypto';
import type { Db } from './store.ts';
import { announceChanges } from './changes.ts';

/** The change feed kind of API keys: revoking one announces its id (src/store/change-feed.ts). */
export const API_KEY_CHANGES = 'api_key';

/**
 * What a key may do: `read` keys call the read API (players, seasons, stats …); `ingest` keys
 * only push matches and telemetry (`/ingest/…`). A game server's key can then never read, and a
 * leaked read key can never write.
 */
export const API_KEY_SCOPES = ['read', 'ingest'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface ApiKey {
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** Requests per minute, counted against the budget of the key's scope. */
  ratePerMinute: number;
  createdAt: number;
  revokedAt: number | null;
}

/** Keys are stored as SHA-256 digests: a leaked database reveals no usable key. */
export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** A new random key: `gd_` and 40 URL-safe characters (240 bits). */
export function generateApiKey(): string {
  return `gd_${crypto.randomBytes(30).toString('base64url')}`;
}

/**
 * Stores a key (its hash only) and returns its record. `key` defaults to a new random one;
 * storing a key that already exists returns the existing record unchanged.
 */
export async function createApiKey(
  db: Db,
  options: {
    name: string;
    ratePerMinute: number;
    now: number;
    key?: string;
    /** Default 'read'. */
    scope?: ApiKeyScope;
  },
): Promise<{ key: string; record: ApiKey }> {
  if (!db.isTransaction) return db.transaction().execute((trx) => createApiKey(trx, options));
  const key = options.key ?? generateApiKey();
  const keyHash = hashApiKey(key);
  const existing = await findApiKeyByHash(db, keyHash);
  if (existing) return { key, record: existing };
  const record: ApiKey = {
    id: `key_${crypto.randomBytes(6).toString('hex')}`,
    name: options.name,
    scope: options.scope ?? 'read',
    ratePerMinute: options.ratePerMinute,
    createdAt: options.now,
    revokedAt: null,
  };
  await db
    .insertInto('api_keys')
    .values({
      id: record.id,
      name: record.name,
      key_hash: keyHash,
      rate_per_minute: record.ratePerMinute,
      created_at: record.createdAt,
      revoked_at: null,
      scope: record.scope,
    })
    .execute();
  // A serving instance that was asked for this key before it existed remembers "unknown": the
  // announcement makes it ask again.
  await announceChanges(db, API_KEY_CHANGES, [record.id], options.now);
  return { key, record };
}

type ApiKeyRow = {
  id: string;
  name: string;
  scope: string;
  rate_per_minute: number;
  created_at: number;
  revoked_at: number | null;
};

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  // Guards compare for equality, so a value this release does not know grants nothing.
  scope: row.scope as ApiKeyScope,
  ratePerMinute: row.rate_per_minute,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const COLUMNS = ['id', 'name', 'scope', 'rate_per_minute', 'created_at', 'revoked_at'] as const;

/** The key with this hash, revoked or not; null when unknown. */
export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKey | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(COLUMNS)
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return row ? toApiKey(row) : null;
}

export async function listApiKeys(db: Db): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(COLUMNS)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toApiKey);
}

/**
 * Marks a key revoked and announces it on the change feed in the same transaction, so every
 * serving instance drops the key from its cache within a second. Returns false when no such key
 * exists. Revoking twice keeps the first time.
 */
export async function revokeApiKey(db: Db, id: string, now: number): Promise<boolean> {
  if (!db.isTransaction) return db.transaction().execute((trx) => revokeApiKey(trx, id, now));
  const key = await db
    .selectFrom('api_keys')
    .select('revoked_at')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!key) return false;
  if (key.revoked_at === null) {
    await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).execute();
    await announceChanges(db, API_KEY_CHANGES, [id], now);
  }
  return true;
}
