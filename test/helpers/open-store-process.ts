/**
 * A process that opens (and so migrates) the SQLite store at argv[2], for the tests of two
 * processes starting on one new store at the same moment and of what migrating leaves resident.
 * Prints `migrated` and, as JSON, how much its resident memory grew while the store opened (the
 * store still open); a failure reaches the test as the process's exit code and standard error.
 */
import { openStore } from '../../src/store/store.ts';

const before = process.memoryUsage().rss;
const store = await openStore(`sqlite:${process.argv[2]!}`);
const grew = process.memoryUsage().rss - before;
await store.close();
process.stdout.write(`migrated ${JSON.stringify({ rssGrowth: grew })}\n`);
