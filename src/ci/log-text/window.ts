/**
 * The last lines of a stream: at most `maxLines` of them and, when `maxBytes` is set, as many of the
 * last ones as fit in `maxBytes` UTF-8 bytes joined with `\n` (always at least the last line, which
 * the caller may then cut). Pushing is O(1) amortised; memory is what the window holds.
 */
export class LineWindow {
  private lines: string[] = [];
  private sizes: number[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  push(line: string): void {
    if (this.maxLines === 0) return;
    const size = Buffer.byteLength(line) + 1;
    this.lines.push(line);
    this.sizes.push(size);
    this.bytes += size;
    while (this.length > this.maxLines || (this.length > 1 && this.bytes - 1 > this.maxBytes))
      this.dropOldest();
  }

  get length(): number {
    return this.lines.length - this.head;
  }

  toArray(): string[] {
    return this.lines.slice(this.head);
  }

  private dropOldest(): void {
    this.bytes -= this.sizes[this.head] ?? 0;
    this.lines[this.head] = '';
    this.head += 1;
    // Reclaim the dropped slots once they are half of the array: O(1) amortised, and the array
    // stays within twice what the window holds.
    if (this.head >= 32 && this.head * 2 >= this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}
