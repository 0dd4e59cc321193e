/**
 * A Map that forgets its least recently written entries beyond `capacity`, for what a process
 * remembers about recent builds (losing an old entry costs at most one redundant Slack call).
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity > 0))
      throw new RangeError('capacity must be a positive integer');
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
