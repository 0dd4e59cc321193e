/** A binary min-heap: `before(a, b)` says whether `a` comes out first. */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    this.items.push(item);
    let index = this.items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.swapIfBefore(index, parent)) break;
      index = parent;
    }
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (top === undefined || last === undefined || this.items.length === 0) return top;
    this.items[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (this.isBefore(left, smallest)) smallest = left;
      if (this.isBefore(right, smallest)) smallest = right;
      if (smallest === index) break;
      this.swapIfBefore(smallest, index);
      index = smallest;
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }

  private isBefore(i: number, j: number): boolean {
    const a = this.items[i];
    const b = this.items[j];
    return a !== undefined && b !== undefined && this.before(a, b);
  }

  /** Swaps positions i and j when the item at i comes before the one at j. */
  private swapIfBefore(i: number, j: number): boolean {
    const a = this.items[i];
    const b = this.items[j];
    if (a === undefined || b === undefined || !this.before(a, b)) return false;
    this.items[i] = b;
    this.items[j] = a;
    return true;
  }
}
