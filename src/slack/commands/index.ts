/** The `/ci` command text layer: parse a command, and the help generated from the same table. */
export { COMMAND_NAMES, COMMANDS, type CommandName, findCommand } from './commands.js';
export {
  BUILD_EVENTS,
  type BuildEvent,
  formatFilters,
  readFilters,
  type SubscriptionFilters,
} from './filters.js';
export { commandHelp, errorText, type HelpSection, helpSections, helpText } from './help.js';
export { MAX_COMMAND_TEXT, parseCommand, usageText } from './parse.js';
export type {
  CommonFields,
  ParseContext,
  ParsedCommand,
  ParsedCommandOf,
  ParseError,
  ParseErrorKind,
  ParseResult,
} from './types.js';
export { usageLines } from './usage.js';
