import fs from 'node:fs';
import path from 'node:path';
import type { Runtime } from '../runtime.ts';
import { createApiKey, findApiKeyByHash, hashApiKey } from '../store/api-keys.ts';

/** The demo key's budget: a sandbox user is never throttled unless they ask for it. */
export const DEMO_KEY_RATE_PER_MINUTE = 10_000;

/**
 * Registers the demo API key and returns it in clear. `DEMO_API_KEY` wins when set; otherwise
 * a random key is made once and kept in `<DATA_DIR>/demo-api-key` (mode 0600) so every start can
 * print it — the store itself only has its hash.
 */
export async function ensureDemoApiKey(runtime: Runtime): Promise<string> {
  const { config, store, clock } = runtime;
  const file = path.join(config.dataDir, 'demo-api-key');
  let key = config.demoApiKey;
  if (key === null && fs.existsSync(file)) {
    const saved = fs.readFileSync(file, 'utf8').trim();
    if (saved && (await findApiKeyByHash(store.db, hashApiKey(saved)))?.revokedAt === null)
      key = saved;
  }
  const created = await createApiKey(store.db, {
    name: 'demo',
    ratePerMinute: DEMO_KEY_RATE_PER_MINUTE,
    now: clock.now(),
    ...(key ? { key } : {}),
  });
  if (config.demoApiKey === null) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, `${created.key}\n`, { mode: 0o600 });
  }
  return created.key;
}

/** True when no match is stored (a fresh install, or everything aged out of retention). */
export async function isStoreEmpty(runtime: Runtime): Promise<boolean> {
  const row = await runtime.store.db.selectFrom('matches').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
