/**
 * A numbered piece of a job's log, as the REST chunked form (`{parts: [{number, content, final}]}`)
 * and the realtime `job:log` event (`{id, _log | content, number, final}`, text renamed to
 * `content` by the caller) both give it. Parts can arrive late, twice or out of order.
 */
export interface LogPartInput {
  number: number;
  content: string;
  final?: boolean;
}

export function checkFirstPart(firstPart: number): number {
  if (!Number.isSafeInteger(firstPart) || firstPart < 0) {
    throw new RangeError('firstPart must be a non-negative integer');
  }
  return firstPart;
}

/** Part numbers we can place: integers from `firstPart` on. Anything else is ignored like a duplicate. */
export function isPlaceable(number: number, firstPart: number): boolean {
  return Number.isSafeInteger(number) && number >= firstPart;
}

/**
 * Assembles a whole log from its parts: ignores duplicates (the first copy wins), orders by number,
 * knows which parts are missing. Holds every part; for a live view in bounded memory use `LiveTail`.
 */
export class LogParts {
  private readonly parts = new Map<number, string>();
  private readonly firstPart: number;
  /** The lowest number not received yet (the contiguous run is firstPart .. nextContiguous-1). */
  private nextContiguous: number;
  private highestSeen: number;
  private finalReceived = false;

  /** `firstPart`: the number the log starts at (parts below it are ignored); default 0. */
  constructor(options?: { firstPart?: number }) {
    this.firstPart = checkFirstPart(options?.firstPart ?? 0);
    this.nextContiguous = this.firstPart;
    this.highestSeen = this.firstPart - 1;
  }

  /** False when the part is a duplicate (or its number is below `firstPart` or not an integer). */
  add(part: LogPartInput): boolean {
    if (!isPlaceable(part.number, this.firstPart) || this.parts.has(part.number)) return false;
    this.parts.set(part.number, part.content);
    if (part.final === true) this.finalReceived = true;
    if (part.number > this.highestSeen) this.highestSeen = part.number;
    while (this.parts.has(this.nextContiguous)) this.nextContiguous += 1;
    return true;
  }

  /** The highest part number seen (`firstPart - 1` before any). */
  get highest(): number {
    return this.highestSeen;
  }

  get finalSeen(): boolean {
    return this.finalReceived;
  }

  /** A final part was seen and no part below the highest is missing. */
  get complete(): boolean {
    return this.finalReceived && this.nextContiguous > this.highestSeen;
  }

  /** Text of the run of parts from `firstPart` up to the first gap. */
  contiguousText(): string {
    let text = '';
    for (let number = this.firstPart; number < this.nextContiguous; number += 1) {
      text += this.parts.get(number) ?? '';
    }
    return text;
  }

  /** Numbers below the highest part seen that have not arrived, ascending. */
  missing(): number[] {
    const gaps: number[] = [];
    let expected = this.nextContiguous;
    for (const number of this.sortedNumbers()) {
      if (number < expected) continue;
      for (; expected < number; expected += 1) gaps.push(expected);
      expected = number + 1;
    }
    return gaps;
  }

  /** All parts received, in order, gaps skipped. */
  text(): string {
    return this.sortedNumbers()
      .map((number) => this.parts.get(number) ?? '')
      .join('');
  }

  private sortedNumbers(): number[] {
    return [...this.parts.keys()].sort((a, b) => a - b);
  }
}
