import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually, startWorld } from './watch-harness.js';

describe('build watcher tokens', () => {
  it('pauses the subscription of a creator who unlinked and watches with the next subscriber', async (t) => {
    const w = await startWorld({ realtime: false });
    t.after(() => w.close());
    await w.link('U0RKH', 'rkh');
    const gone = await w.subscribe('C0GONE', 'rails/rails', 'U0GONE');
    await w.subscribe('C0RKH', 'rails/rails', 'U0RKH');
    const proc = await w.process();

    const notice = await w.slack.waitForCall('chat.postMessage');
    assert.equal(notice.args.channel, 'C0GONE');
    assert.equal(
      notice.args.text,
      'I paused the subscription to rails/rails: <@U0GONE> no longer has a linked travis-ci.com account. Anyone with access can `/ci subscribe rails/rails` again.',
    );
    assert.equal((await w.admin.subscriptions.get(gone.id))?.pausedReason, 'not_linked');
    const build = w.ci.state.addBuild('rails/rails', { state: 'created', jobs: 1 });
    await proc.sink.waitFor((u) => u.build.id === build.id, 'a build, watched with rkh');
    assert.ok(
      w.ci.requests.every(
        (r) => r.headers.authorization === undefined || r.headers.authorization === 'token token-rkh',
      ),
    );
  });

  it('pauses a repository subscription whose creator lost access, and tells the channel once', async (t) => {
    const w = await startWorld({ realtime: false });
    t.after(() => w.close());
    w.ci.state.addUser({ login: 'alice' });
    w.ci.state.grant('alice', 'rkh/secret-project', 'pull');
    await w.link('U0ALICE', 'alice');
    const sub = await w.subscribe('C0SECRET', 'rkh/secret-project', 'U0ALICE');
    const proc = await w.process();
    await eventually(() => proc.watcher.stats().polls >= 1, 'a poll');

    w.ci.state.revoke('alice', 'rkh/secret-project');
    const notice = await w.slack.waitForCall('chat.postMessage');
    assert.equal(
      notice.args.text,
      "I paused the subscription to rkh/secret-project: <@U0ALICE>'s travis-ci.com account can no longer see it. Anyone with access can `/ci subscribe rkh/secret-project` again.",
    );
    await eventually(() => proc.watcher.stats().held.length === 0, 'nothing left to watch');
    assert.equal((await w.admin.subscriptions.get(sub.id))?.pausedReason, 'no_access');
    await proc.services.outbox.drain(2_000);
    assert.equal(w.slack.callsTo('chat.postMessage').length, 1);
    assert.deepEqual(proc.sink.updates, []);
  });
});
