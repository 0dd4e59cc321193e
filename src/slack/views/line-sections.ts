import type { Block } from '../reply.js';
import { MAX_SECTION_TEXT } from '../text/limits.js';
import { section } from './blocks.js';

/**
 * Lines of mrkdwn (already fitted with `fitList`) as section blocks of at most Slack's 3,000
 * characters each, never splitting a line.
 */
export function lineSections(lines: readonly string[], maxChars = MAX_SECTION_TEXT): Block[] {
  const blocks: Block[] = [];
  let chunk: string[] = [];
  let length = 0;
  for (const line of lines) {
    const cost = (chunk.length > 0 ? 1 : 0) + line.length;
    if (chunk.length > 0 && length + cost > maxChars) {
      blocks.push(section(chunk.join('\n')));
      chunk = [];
      length = 0;
    }
    length += (chunk.length > 0 ? 1 : 0) + line.length;
    chunk.push(line);
  }
  if (chunk.length > 0) blocks.push(section(chunk.join('\n')));
  return blocks;
}
