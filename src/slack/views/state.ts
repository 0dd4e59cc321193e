/** How a build or job state looks in Slack. Unknown states are shown as they come. */
const EMOJI: Record<string, string> = {
  passed: ':white_check_mark:',
  failed: ':x:',
  errored: ':heavy_exclamation_mark:',
  canceled: ':no_entry_sign:',
  started: ':arrows_counterclockwise:',
  created: ':clock3:',
  received: ':clock3:',
  queued: ':clock3:',
  ready: ':clock3:',
};

export function stateEmoji(state: string | null | undefined): string {
  return (state && EMOJI[state]) ?? ':grey_question:';
}

/** "passed", "failed", "running" ... as a sentence word. */
export function stateWord(state: string | null | undefined): string {
  if (!state) return 'unknown';
  if (state === 'started') return 'running';
  if (state === 'created' || state === 'received' || state === 'ready') return 'queued';
  return state;
}
