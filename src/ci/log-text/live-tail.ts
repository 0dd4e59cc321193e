import { LogCleaner } from './cleaner.js';
import { checkFirstPart, isPlaceable, type LogPartInput } from './parts.js';
import { LineWindow } from './window.js';

export interface LiveTailOptions {
  /** Lines kept and shown; default 40. */
  maxLines?: number;
  /** Characters kept of each cleaned line (its end); default 4,096. */
  maxLineLength?: number;
  /** The number of the first part expected; default 0. */
  firstPart?: number;
  /** Parts held while waiting for an earlier one; default 1,000. */
  maxHeldParts?: number;
  /** Characters held in such parts; default 512 Ki. */
  maxHeldChars?: number;
}

interface HeldPart {
  content: string;
  final: boolean;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/**
 * The last lines of a followed job's log, kept up to date as parts arrive in any order.
 *
 * Parts are folded into a streaming cleaner strictly in number order, so once every part is in the
 * lines are exactly the last `maxLines` of `cleanLog(all parts joined, {maxLineLength})`, whatever
 * the arrival order. A part that arrives before an earlier one is held until the gap fills; only
 * the contiguous prefix is ever cleaned. Duplicates and parts already folded are ignored.
 *
 * Memory per job is bounded: the window of lines, the current line (capped), and the held parts.
 * When more than `maxHeldParts` parts or `maxHeldChars` characters are held, the part we wait for
 * is taken as lost: the tail moves on to the lowest held part (counted in `skippedParts`; a caller
 * that needs the exact log fetches it whole). Parts numbered above the final part are dropped.
 * Each part costs O(its length) plus O(1) map work.
 */
export class LiveTail {
  private readonly maxLines: number;
  private readonly maxHeldParts: number;
  private readonly maxHeldChars: number;
  private readonly cleaner: LogCleaner;
  private readonly window: LineWindow;
  private readonly held = new Map<number, HeldPart>();
  private heldChars = 0;
  private nextPart: number;
  private finalReceived = false;
  private finalFolded = false;
  private skipped = 0;

  constructor(options?: LiveTailOptions) {
    this.maxLines = positiveInteger('maxLines', options?.maxLines ?? 40);
    this.maxHeldParts = positiveInteger('maxHeldParts', options?.maxHeldParts ?? 1000);
    this.maxHeldChars = positiveInteger('maxHeldChars', options?.maxHeldChars ?? 512 * 1024);
    this.cleaner = new LogCleaner({ maxLineLength: options?.maxLineLength ?? 4096 });
    this.window = new LineWindow(this.maxLines);
    this.nextPart = checkFirstPart(options?.firstPart ?? 0);
  }

  /** False when the part is ignored: a duplicate, already folded or skipped, or after the final part. */
  add(part: LogPartInput): boolean {
    if (this.finalFolded || !isPlaceable(part.number, this.nextPart) || this.held.has(part.number)) {
      return false;
    }
    const final = part.final === true;
    if (final) this.finalReceived = true;
    if (part.number === this.nextPart) {
      this.fold(part.content, final);
      this.foldHeld();
    } else {
      this.held.set(part.number, { content: part.content, final });
      this.heldChars += part.content.length;
      this.enforceHeldBound();
    }
    return true;
  }

  /** The last `maxLines` cleaned lines, oldest first, including the line still being written. */
  lines(): string[] {
    const lines = this.window.toArray();
    const current = this.cleaner.pending();
    if (current !== undefined) lines.push(current);
    return lines.length > this.maxLines ? lines.slice(lines.length - this.maxLines) : lines;
  }

  /** The number of the last part folded into the tail (`firstPart - 1` before any). */
  get highestContiguous(): number {
    return this.nextPart - 1;
  }

  get finalSeen(): boolean {
    return this.finalReceived;
  }

  /** The final part has been folded in: every part up to it is in the tail (or was skipped). */
  get done(): boolean {
    return this.finalFolded;
  }

  /** Parts given up on because too much was held while waiting for them. */
  get skippedParts(): number {
    return this.skipped;
  }

  /** Numbers awaited below the highest held part, ascending (at most `maxHeldParts` of them). */
  get missing(): number[] {
    const gaps: number[] = [];
    if (this.held.size === 0) return gaps;
    const highest = Math.max(...this.held.keys());
    for (let number = this.nextPart; number < highest && gaps.length < this.maxHeldParts; number += 1) {
      if (!this.held.has(number)) gaps.push(number);
    }
    return gaps;
  }

  private fold(content: string, final: boolean): void {
    for (const line of this.cleaner.push(content)) this.window.push(line);
    this.nextPart += 1;
    if (!final) return;
    this.finalFolded = true;
    this.held.clear();
    this.heldChars = 0;
  }

  private foldHeld(): void {
    for (let part = this.held.get(this.nextPart); part !== undefined; part = this.held.get(this.nextPart)) {
      this.held.delete(this.nextPart);
      this.heldChars -= part.content.length;
      this.fold(part.content, part.final);
    }
  }

  private enforceHeldBound(): void {
    while (this.held.size > this.maxHeldParts || this.heldChars > this.maxHeldChars) {
      let lowest = Number.POSITIVE_INFINITY;
      for (const number of this.held.keys()) if (number < lowest) lowest = number;
      this.skipped += lowest - this.nextPart;
      this.nextPart = lowest;
      this.foldHeld();
    }
  }
}
