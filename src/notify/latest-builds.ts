import { BoundedMap } from './bounded-map.js';
import { type BuildSnapshot, isStale } from './snapshot.js';

/** A build's state as this process last accepted it; `seq` grows with every accepted state. */
export interface LatestEntry {
  seq: number;
  snapshot: BuildSnapshot;
}

/**
 * The newest accepted state of each recent build. Messages are always rendered from here right
 * before a call leaves, so when two updates of a build race, the call that goes last carries the
 * newest state, whichever update started it.
 */
export class LatestBuilds {
  private seq = 0;
  private readonly entries: BoundedMap<string, LatestEntry>;

  constructor(capacity: number) {
    this.entries = new BoundedMap(capacity);
  }

  get(key: string): LatestEntry | undefined {
    return this.entries.get(key);
  }

  put(key: string, snapshot: BuildSnapshot): LatestEntry {
    this.seq += 1;
    const entry = { seq: this.seq, snapshot };
    this.entries.set(key, entry);
    return entry;
  }

  /** Takes a state learnt from another replica when this process holds nothing, or something older. */
  offer(key: string, snapshot: BuildSnapshot): void {
    const current = this.entries.get(key);
    if (current === undefined || isStale(snapshot.build, current.snapshot.build)) this.put(key, snapshot);
  }

  /** The newest of what this process holds for the build and `seen` (which it may have forgotten). */
  newest(key: string, seen: LatestEntry): LatestEntry {
    const current = this.entries.get(key);
    return current !== undefined && current.seq >= seen.seq ? current : seen;
  }
}
