/**
 * One run of an async task per key at a time: callers asking for a key already under way get
 * the same promise, so concurrent requests for one missing thing cause one upstream request.
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, task: () => Promise<T>): Promise<T> {
    const pending = this.running.get(key);
    if (pending !== undefined) return pending;
    const started = task().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
