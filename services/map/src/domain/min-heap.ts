/**
 * Binary min-heap of (priority, tieBreak, payload) entries. The explicit integer tie-break keeps the
 * pop order — and therefore every generated layout — independent of insertion quirks.
 */
export class MinHeap<T> {
  private readonly entries: Array<{ priority: number; tieBreak: number; payload: T }> = [];

  get size(): number {
    return this.entries.length;
  }

  push(priority: number, tieBreak: number, payload: T): void {
    const entries = this.entries;
    entries.push({ priority, tieBreak, payload });
    let child = entries.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.less(child, parent)) break;
      this.swap(child, parent);
      child = parent;
    }
  }

  pop(): { priority: number; payload: T } | undefined {
    const entries = this.entries;
    const top = entries[0];
    if (top === undefined) return undefined;
    const last = entries.pop()!;
    if (entries.length > 0) {
      entries[0] = last;
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        const right = left + 1;
        let smallest = parent;
        if (left < entries.length && this.less(left, smallest)) smallest = left;
        if (right < entries.length && this.less(right, smallest)) smallest = right;
        if (smallest === parent) break;
        this.swap(parent, smallest);
        parent = smallest;
      }
    }
    return { priority: top.priority, payload: top.payload };
  }

  // Callers pass positions below `entries.length` only, hence the `!`s in these two.
  private less(a: number, b: number): boolean {
    const ea = this.entries[a]!;
    const eb = this.entries[b]!;
    return ea.priority < eb.priority || (ea.priority === eb.priority && ea.tieBreak < eb.tieBreak);
  }

  private swap(a: number, b: number): void {
    const held = this.entries[a]!;
    this.entries[a] = this.entries[b]!;
    this.entries[b] = held;
  }
}
