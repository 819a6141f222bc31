import { createRequire } from 'node:module';

/** The package version, from package.json (one level up from both src/ and dist/). */
export const SERVICE_VERSION = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
