import type { Deployment } from '../../config.js';
import type { Interaction } from '../interaction.js';
import type { CommandName, ParsedCommandOf } from './index.js';

/** What a `/ci` command handler gets, beyond the common interaction. */
export interface CommandContext extends Interaction {
  /** The deployment the command runs against (flag, pasted link, channel default or the user's). */
  deployment: Deployment;
  /** The text after `/ci`, as typed: re-run on another deployment from a button. */
  text: string;
}

export type CommandHandler<N extends CommandName> = (
  ctx: CommandContext,
  command: ParsedCommandOf<N>,
) => Promise<void>;

/** One handler per command: the compiler refuses a command without one. */
export type CommandHandlers = { [N in CommandName]: CommandHandler<N> };
