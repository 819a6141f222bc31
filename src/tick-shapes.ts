/**
 * Keeps V8's hidden classes ("maps") of `process.nextTick`'s queue entries alive, so that making
 * one stays an inlined allocation instead of a runtime call.
 *
 * Node's streams schedule several ticks per request; each entry is an object literal whose
 * computed keys (async id symbols) V8 stores through feedback naming the object's map after
 * each key. Nothing holds those maps but the entries themselves, which live for one tick: a full
 * garbage collection that finds none alive frees the maps, the next entry gets new ones, and
 * after a few such collections the feedback turns megamorphic for good: every entry then goes
 * through the runtime, about 8% of a cached answer under load (measured with perf; none of it in
 * the bare node:http server, whose heap never needs a full collection). Holding one current entry keeps its maps, and so the feedback,
 * steady. It is refreshed, so that a map replaced by V8 (a field generalised) is followed.
 */
import { executionAsyncResource } from 'node:async_hooks';

/** How often the held entry is replaced, in ms. */
const REFRESH_MS = 1_000;

/** Starts holding a current nextTick entry; returns the function that stops. */
export function keepTickShapes(): () => void {
  const held: { entry: object | null } = { entry: null };
  // Run as a tick, the current async resource is the tick's own queue entry. The argument makes
  // its `args` an array, as in the ticks of the streams.
  const hold = (_: unknown): void => {
    held.entry = executionAsyncResource();
  };
  const timer = setInterval(() => process.nextTick(hold, null), REFRESH_MS).unref();
  process.nextTick(hold, null);
  return () => {
    clearInterval(timer);
    held.entry = null;
  };
}
