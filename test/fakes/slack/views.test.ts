import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeSlack, startFakeSlack, TRIGGER_LIFETIME_MS } from './index.js';
import { manualClock, platformError, webClientFor } from './test-support.js';

const modal = (title: string, fields: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  title: { type: 'plain_text' as const, text: title },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: title } }],
  ...fields,
});

describe('fake Slack views and trigger ids', () => {
  const clock = manualClock();
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack({ now: clock.now });
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  it('opens a modal and answers with the view Slack returns', async () => {
    const opened = await webClientFor(slack).views.open({
      trigger_id: slack.issueTriggerId(),
      view: modal('Restart', { callback_id: 'restart', private_metadata: '{"build":1}' }),
    });
    const view = opened.view;
    assert.ok(view?.id?.startsWith('V'));
    assert.equal(view?.root_view_id, view?.id);
    assert.equal(view?.previous_view_id, null);
    assert.equal(view?.callback_id, 'restart');
    assert.equal(view?.private_metadata, '{"build":1}');
    assert.match(view?.hash ?? '', /^\d+\.[0-9a-f]+$/);
    assert.equal(slack.views().length, 1);
  });

  it('accepts a trigger_id up to 3 s after it was issued, and refuses it after', async () => {
    const client = webClientFor(slack);
    const fresh = slack.issueTriggerId();
    clock.advance(TRIGGER_LIFETIME_MS);
    assert.equal((await client.views.open({ trigger_id: fresh, view: modal('A') })).ok, true);

    const stale = slack.issueTriggerId();
    clock.advance(TRIGGER_LIFETIME_MS + 1);
    assert.equal(
      (await platformError(client.views.open({ trigger_id: stale, view: modal('B') }))).error,
      'expired_trigger_id',
    );
  });

  it('refuses a trigger_id used twice, unknown or malformed', async () => {
    const client = webClientFor(slack);
    const trigger = slack.issueTriggerId();
    await client.views.open({ trigger_id: trigger, view: modal('A') });
    const reused = await platformError(client.views.open({ trigger_id: trigger, view: modal('A') }));
    assert.equal(reused.error, 'exchanged_trigger_id');
    const unknown = await platformError(
      client.views.open({ trigger_id: '1700000000.1.abcdef', view: modal('A') }),
    );
    assert.equal(unknown.error, 'invalid_trigger_id');
    const malformed = await platformError(
      client.views.open({ trigger_id: 'not-a-trigger', view: modal('A') }),
    );
    assert.equal(malformed.error, 'invalid_trigger_id');
  });

  it('pushes at most 2 views onto a stack after views.open', async () => {
    const client = webClientFor(slack);
    const root = (await client.views.open({ trigger_id: slack.issueTriggerId(), view: modal('Root') })).view;
    const rootId = root?.id ?? '';
    const second = await client.views.push({
      trigger_id: slack.issueTriggerId({ viewId: rootId }),
      view: modal('Second'),
    });
    assert.equal(second.view?.root_view_id, rootId);
    assert.equal(second.view?.previous_view_id, rootId);
    const third = await client.views.push({
      trigger_id: slack.issueTriggerId({ viewId: second.view?.id ?? '' }),
      view: modal('Third'),
    });
    assert.equal(third.ok, true);
    const fourth = await platformError(
      client.views.push({ trigger_id: slack.issueTriggerId({ viewId: rootId }), view: modal('Fourth') }),
    );
    assert.equal(fourth.error, 'push_limit_reached');

    // A trigger from another modal pushes onto that modal's own stack.
    const other = (await client.views.open({ trigger_id: slack.issueTriggerId(), view: modal('Other') }))
      .view;
    const pushed = await client.views.push({
      trigger_id: slack.issueTriggerId({ viewId: other?.id ?? '' }),
      view: modal('Other 2'),
    });
    assert.equal(pushed.view?.root_view_id, other?.id);
  });

  it('refuses views.push when no modal is open, and with an expired trigger', async () => {
    const client = webClientFor(slack);
    const none = await platformError(
      client.views.push({ trigger_id: slack.issueTriggerId(), view: modal('X') }),
    );
    assert.equal(none.error, 'not_found');
    await client.views.open({ trigger_id: slack.issueTriggerId(), view: modal('Root') });
    const stale = slack.issueTriggerId();
    clock.advance(TRIGGER_LIFETIME_MS + 1);
    const expired = await platformError(client.views.push({ trigger_id: stale, view: modal('X') }));
    assert.equal(expired.error, 'expired_trigger_id');
  });

  it('updates a view by id or external_id and checks the hash', async () => {
    const client = webClientFor(slack);
    const opened = await client.views.open({
      trigger_id: slack.issueTriggerId(),
      view: modal('Log', { external_id: 'log-42' }),
    });
    const id = opened.view?.id ?? '';
    const updated = await client.views.update({
      view_id: id,
      hash: opened.view?.hash ?? '',
      view: modal('Log 2'),
    });
    assert.notEqual(updated.view?.hash, opened.view?.hash);
    const byExternal = await client.views.update({ external_id: 'log-42', view: modal('Log 3') });
    assert.equal(byExternal.view?.id, id);
    const conflict = await platformError(
      client.views.update({ view_id: id, hash: opened.view?.hash ?? '', view: modal('Stale') }),
    );
    assert.equal(conflict.error, 'hash_conflict');
    const missing = await platformError(client.views.update({ view_id: 'V404', view: modal('X') }));
    assert.equal(missing.error, 'not_found');
    assert.deepEqual(slack.views()[0]?.view.title, { type: 'plain_text', text: 'Log 3' });
  });

  it('publishes a Home tab per user, replacing it in place', async () => {
    const client = webClientFor(slack);
    const home = (text: string) => ({
      type: 'home' as const,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    });
    const first = await client.views.publish({ user_id: 'U1', view: home('v1') });
    const second = await client.views.publish({ user_id: 'U1', view: home('v2') });
    assert.equal(second.view?.id, first.view?.id);
    assert.deepEqual(slack.homeTab('U1')?.view.blocks, home('v2').blocks);
    assert.equal(slack.homeTab('U2'), undefined);
    const unknownUser = await platformError(client.views.publish({ user_id: 'nobody', view: home('x') }));
    assert.equal(unknownUser.error, 'user_not_found');
  });
});
