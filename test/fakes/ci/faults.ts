/** Injected failures, checked before normal handling; each counts down its `times`. */
import type { Fault, FaultMatch } from './types.js';

interface Entry {
  match: FaultMatch;
  fault: Fault;
  remaining: number;
}

export class FaultRegistry {
  private entries: Entry[] = [];

  add(match: FaultMatch, fault: Fault): void {
    this.entries.push({ match, fault, remaining: fault.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.entries = [];
  }

  /** The first fault for this request, used up by one; `undefined` when none applies. */
  take(method: string, path: string): Fault | undefined {
    const entry = this.entries.find((e) => matches(e.match, method, path));
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries = this.entries.filter((e) => e !== entry);
    return entry.fault;
  }
}

function matches(match: FaultMatch, method: string, path: string): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (typeof match.path === 'string') return match.path === path;
  match.path.lastIndex = 0;
  return match.path.test(path);
}

/** A 200 whose JSON stops halfway. */
export const MALFORMED_BODY = '{"builds": [{"id": 1, "number": "1", "state": ';
