import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment } from '../../../src/config.js';
import {
  type CommandName,
  type ParsedCommand,
  type ParsedCommandOf,
  parseCommand,
  type SubscriptionFilters,
} from '../../../src/slack/commands/index.js';
import type { BuildOrJobRef, BuildRef, JobRef, RepoRef, RepoTarget } from '../../../src/slack/refs.js';

// Compile-time checks (npm run typecheck): the parsed types derived from the table are exact.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(): T | undefined => undefined;

expectType<Equal<ParsedCommandOf<'builds'>['repo'], RepoRef>>();
expectType<Equal<ParsedCommandOf<'builds'>['branch'], string | undefined>>();
expectType<Equal<ParsedCommandOf<'builds'>['pr'], boolean>>();
expectType<Equal<ParsedCommandOf<'build'>['build'], BuildRef>>();
expectType<Equal<ParsedCommandOf<'logs'>['job'], JobRef>>();
expectType<Equal<ParsedCommandOf<'logs'>['lines'], number>>();
expectType<Equal<ParsedCommandOf<'restart'>['target'], BuildOrJobRef>>();
expectType<
  Equal<
    ParsedCommandOf<'jobs'>['state'],
    | 'created'
    | 'received'
    | 'queued'
    | 'started'
    | 'passed'
    | 'failed'
    | 'errored'
    | 'canceled'
    | 'ready'
    | undefined
  >
>();
expectType<Equal<ParsedCommandOf<'jobs'>['queue'], string | undefined>>();
expectType<Equal<ParsedCommandOf<'env'>['sub'], 'list' | 'set' | 'unset'>>();
expectType<Equal<Extract<ParsedCommandOf<'env'>, { sub: 'set' }>['variable'], string>>();
expectType<Equal<Extract<ParsedCommandOf<'env'>, { sub: 'set' }>['public'], boolean>>();
expectType<Equal<ParsedCommandOf<'notify'>['state'], 'on' | 'off'>>();
expectType<Equal<ParsedCommandOf<'migrate'>['targets'], RepoTarget[]>>();
expectType<Equal<ParsedCommandOf<'subscribe'>['filters'], SubscriptionFilters>>();
expectType<Equal<ParsedCommandOf<'help'>['topic'], CommandName | undefined>>();
expectType<Equal<ParsedCommandOf<'use'>['repo'], RepoRef | undefined>>();
expectType<Equal<ParsedCommandOf<'login'>['deployment'], Deployment | undefined>>();
expectType<Equal<ParsedCommand['usedChannelRepo'], boolean>>();

/** What a handler does with a parsed command: switch on its name, then on its subcommand. */
function describeCommand(command: ParsedCommand): string {
  switch (command.name) {
    case 'env':
      return command.sub === 'list' ? 'list' : `${command.sub} ${command.variable}`;
    case 'restart':
      return `restart ${command.target.type}`;
    case 'logs':
      return `logs ${command.lines}${command.follow ? ' follow' : ''}`;
    default:
      return command.name;
  }
}

describe('parsed command types', () => {
  it('narrow by name and subcommand', () => {
    const run = (text: string) => {
      const result = parseCommand(text);
      assert.ok(result.ok);
      return describeCommand(result.command);
    };
    assert.equal(run('env octo/app unset A'), 'unset A');
    assert.equal(run('restart octo/app#1.2'), 'restart job');
    assert.equal(run('logs 5 --follow'), 'logs 40 follow');
    assert.equal(run('lint'), 'lint');
  });
});
