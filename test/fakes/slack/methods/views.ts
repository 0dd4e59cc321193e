import { checkView, formatProblem } from '../block-kit.js';
import type { FakeContext, MethodSpec } from '../context.js';
import {
  fail,
  failWithMessages,
  isRecord,
  missingArgument,
  type Outcome,
  ok,
  stringArg,
} from '../outcome.js';
import type { Json } from '../types.js';
import type { ViewResult } from '../views.js';

type ViewCheck = { ok: true; view: Json } | { ok: false; outcome: Outcome };

/** views.* explain a bad view with `invalid_arguments` and one `[ERROR]` line per problem. */
function checkedView(args: Json, expected: 'modal' | 'home' | 'any'): ViewCheck {
  const { view } = args;
  if (view === undefined) return { ok: false, outcome: missingArgument('view') };
  const problems = checkView(view, expected);
  if (problems.length > 0 || !isRecord(view)) {
    return { ok: false, outcome: failWithMessages('invalid_arguments', problems.map(formatProblem)) };
  }
  return { ok: true, view };
}

function answer(ctx: FakeContext, result: ViewResult): Outcome {
  return result.ok ? ok({ view: ctx.views.toJson(result.view) }) : fail(result.error);
}

function triggerOf(args: Json): string | undefined {
  return stringArg(args, 'trigger_id') ?? stringArg(args, 'interactivity_pointer');
}

const open: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const triggerId = triggerOf(args);
    if (triggerId === undefined) return missingArgument('trigger_id');
    const checked = checkedView(args, 'modal');
    if (!checked.ok) return checked.outcome;
    const trigger = ctx.triggers.exchange(triggerId);
    if (!trigger.ok) return fail(trigger.error);
    return answer(ctx, ctx.views.open(checked.view));
  },
};

const push: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const triggerId = triggerOf(args);
    if (triggerId === undefined) return missingArgument('trigger_id');
    const checked = checkedView(args, 'modal');
    if (!checked.ok) return checked.outcome;
    const trigger = ctx.triggers.exchange(triggerId);
    if (!trigger.ok) return fail(trigger.error);
    return answer(ctx, ctx.views.push(trigger.viewId, checked.view));
  },
};

const update: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const viewId = stringArg(args, 'view_id');
    const externalId = stringArg(args, 'external_id');
    if (viewId === undefined && externalId === undefined) return missingArgument('view_id');
    const checked = checkedView(args, 'any');
    if (!checked.ok) return checked.outcome;
    const target = { ...(viewId ? { viewId } : {}), ...(externalId ? { externalId } : {}) };
    return answer(ctx, ctx.views.update(target, checked.view, stringArg(args, 'hash')));
  },
};

const publish: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const userId = stringArg(args, 'user_id');
    if (userId === undefined) return missingArgument('user_id');
    if (ctx.directory.user(userId) === undefined) return fail('user_not_found');
    const checked = checkedView(args, 'home');
    if (!checked.ok) return checked.outcome;
    return answer(ctx, ctx.views.publish(userId, checked.view, stringArg(args, 'hash')));
  },
};

export const viewMethods: Record<string, MethodSpec> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
