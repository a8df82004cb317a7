// Pending webhook deliveries by due time: a binary min-heap. The dispatcher's poll reads the soonest
// due time and pops what is due, O(log n) per delivery, instead of scanning the whole delivery log
// on every tick. Equal due times come out in insertion order, so a burst starts as it was enqueued.
interface Entry<T> {
  at: number;
  seq: number;
  item: T;
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export class DueQueue<T> {
  private heap: Entry<T>[] = [];
  private seq = 0;

  push(at: number, item: T): void {
    const heap = this.heap;
    heap.push({ at, seq: this.seq++, item });
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index] as Entry<T>, heap[parent] as Entry<T>)) break;
      [heap[index], heap[parent]] = [heap[parent] as Entry<T>, heap[index] as Entry<T>];
      index = parent;
    }
  }

  /** Due time of the soonest entry; undefined when empty. */
  peekAt(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Removes and returns the soonest entry if it is due at `now`. */
  popDue(now: number): T | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (!top || top.at > now) return undefined;
    const last = heap.pop() as Entry<T>;
    if (heap.length > 0) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && before(heap[left] as Entry<T>, heap[smallest] as Entry<T>)) smallest = left;
        if (right < heap.length && before(heap[right] as Entry<T>, heap[smallest] as Entry<T>)) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest] as Entry<T>, heap[index] as Entry<T>];
        index = smallest;
      }
    }
    return top.item;
  }

  clear(): void {
    this.heap = [];
  }
}
