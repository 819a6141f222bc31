/**
 * A process that opens (and so migrates) the SQLite store at argv[2], for the test of two
 * processes starting on one new store at the same moment. Prints `migrated` once open; a
 * failure reaches the test as the process's exit code and standard error.
 */
import { openStore } from '../../src/store/store.ts';

const store = await openStore(`sqlite:${process.argv[2]!}`);
await store.close();
process.stdout.write('migrated\n');
