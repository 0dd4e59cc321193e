/** "Did you mean": the closest known word to a mistyped one. */

/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Longer words than this are not compared (nothing we know is that long). */
const MAX_WORD = 30;

/**
 * The candidate closest to `word` (case-insensitive), if it is close enough: one edit for words up
 * to four letters, two for longer ones; or the only candidate that starts with a word of three or
 * more letters (`subs` → `subscriptions`, but `sub` fits both subscribe and subscriptions).
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (w === '' || w.length > MAX_WORD) return undefined;
  const allowed = w.length <= 4 ? 1 : 2;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(w, candidate.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance))
      best = { candidate, distance };
  }
  if (best) return best.candidate;
  const starting = candidates.filter((c) => c.toLowerCase().startsWith(w));
  return w.length >= 3 && starting.length === 1 ? starting[0] : undefined;
}
