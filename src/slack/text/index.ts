/** Safe Slack text: escaping, links, code blocks, cutting to Slack's limits, small formatters. */
export { breakFences, codeBlock, FENCE_BREAKER, MIN_CODE_BLOCK_CHARS } from './code-block.js';
export { escapeMrkdwn, inlineCode, link, mention, safeHttpUrl, singleLine } from './escape.js';
export { type FitListOptions, type FittedList, fitList } from './fit-list.js';
export { capitalise, formatBytes, formatDuration, formatNumber, plural, timeAgo } from './format.js';
export * from './limits.js';
export { ELLIPSIS, type Keep, type TruncatedLines, truncate, truncateLines } from './truncate.js';
