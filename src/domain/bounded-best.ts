/**
 * The best `capacity` items of a stream under an order, in memory bounded by `capacity`: what a
 * leaderboard rebuild keeps per region while it reads a million candidates page by page,
 * instead of sorting them all. A binary heap whose root is the worst item kept, so an item that
 * does not make the cut costs one comparison.
 */
export class BoundedBest<T> {
  private readonly heap: T[] = [];

  /** `before(a, b)` is true when `a` ranks ahead of `b` (a strict order). */
  constructor(
    private readonly capacity: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}

  /** Keeps `item` if it is among the best so far (it may push out the worst kept). */
  offer(item: T): void {
    const heap = this.heap;
    if (heap.length < this.capacity) {
      heap.push(item);
      this.siftUp(heap.length - 1);
    } else if (this.capacity > 0 && this.before(item, heap[0]!)) {
      heap[0] = item;
      this.siftDown(0);
    }
  }

  /** The items kept, in no particular order. */
  items(): readonly T[] {
    return this.heap;
  }

  // The heap puts the worst item first: `a` is "above" `b` when `b` ranks ahead of `a`.
  private siftUp(index: number): void {
    const heap = this.heap;
    const item = heap[index]!;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(heap[parent]!, item)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = item;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const item = heap[index]!;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const worse = right < heap.length && this.before(heap[left]!, heap[right]!) ? right : left;
      if (!this.before(item, heap[worse]!)) break;
      heap[index] = heap[worse]!;
      index = worse;
    }
    heap[index] = item;
  }
}
