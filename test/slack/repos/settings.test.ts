import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import { modalUpdate, openedModal, submitModal } from '../../helpers/modals.js';
import { assertSlackAccepted, elementOf, type Message, shownText } from '../../helpers/slack-messages.js';

type Values = Record<string, Record<string, object>>;

/** The values a user leaves untouched: what the editor shows, as Slack would submit it. */
function untouched(view: Message): Values {
  const values: Values = {};
  for (const block of view.blocks as Array<Record<string, unknown>>) {
    if (block.type !== 'input') continue;
    const element = block.element as Record<string, unknown>;
    const blockId = String(block.block_id);
    if (element.type === 'checkboxes') {
      values[blockId] = { value: { type: 'checkboxes', selected_options: element.initial_options ?? [] } };
    } else {
      values[blockId] = { value: { type: String(element.type), value: String(element.initial_value ?? '') } };
    }
  }
  return values;
}

describe('/ci settings', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
  });
  after(() => h.close());

  /** `/ci <text>` (or a click), then the editor once it replaced the Loading… modal. */
  async function openEditor(text: string, userId?: string) {
    const since = h.slack.calls.length;
    const { ack } = await h.command(text, userId ? { userId } : {});
    assertAckedAtOnce(ack);
    const opened = await openedModal(h, { since });
    assert.match(JSON.stringify(opened.view), /Loading/);
    return opened;
  }

  async function submit(id: string, editor: Message, values: Values, userId?: string) {
    const ack = await submitModal(h, { id, view: editor }, values, { userId });
    return JSON.parse(ack.body) as {
      response_action: string;
      errors?: Record<string, string>;
      view?: unknown;
    };
  }

  it('opens Loading… at once, then fills in every key: booleans as checkboxes, numbers as numbers', async () => {
    const opened = await openEditor('settings rails/rails');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    const text = JSON.stringify(editor);
    for (const key of [
      'build_pushes',
      'build_pull_requests',
      'auto_cancel_pushes',
      'auto_cancel_pull_requests',
    ]) {
      assert.match(text, new RegExp(`"value":"${key}"`), key);
    }
    assert.match(text, /"type":"checkboxes"/);
    assert.match(
      text,
      /"type":"number_input","action_id":"value","is_decimal_allowed":false,"initial_value":"0"/,
    );
    assertSlackAccepted(h);
  });

  it('PATCHes only the changed keys, announces the change and says so in the modal', async () => {
    const opened = await openEditor('settings rails/rails');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    const values = untouched(editor);
    const flags = values['settings.flags.0']?.value as { selected_options: Array<{ value: string }> };
    flags.selected_options = flags.selected_options.filter((o) => o.value !== 'build_pushes');
    values['settings.value.maximum_number_of_builds'] = { value: { type: 'number_input', value: '3' } };
    const ack = await submit(opened.id, editor, values);
    assert.equal(ack.response_action, 'update');
    await modalUpdate(h, opened.id, { matching: /Saved the settings/ });
    const patch = h.ci.requests.findLast((r) => r.method === 'PATCH' && r.path === '/repos/891/settings');
    assert.deepEqual(JSON.parse(patch?.body ?? ''), {
      settings: { build_pushes: false, maximum_number_of_builds: 3 },
    });
    const post = await h.slack.waitForCall('chat.postMessage', (c) =>
      /changed the settings/.test(String(c.args.text)),
    );
    assert.equal(post.args.channel, FAKE_IDENTITY.channelId);
    assert.match(String(post.args.text), new RegExp(`^<@${FAKE_IDENTITY.userId}> changed the settings of`));
    assert.match(String(post.args.text), /Build pushed branches\* on → off/);
    assert.match(String(post.args.text), /Limit concurrent jobs\* 0 → 3/);
    assert.equal(h.ci.state.getSettings(891).maximum_number_of_builds, 3);
  });

  it('sends nothing when nothing changed', async () => {
    const opened = await openEditor('settings rails/rails');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    const patches = h.ci.requests.filter((r) => r.method === 'PATCH').length;
    const ack = await submit(opened.id, editor, untouched(editor));
    assert.equal(ack.response_action, 'update');
    assert.match(JSON.stringify(ack.view), /Nothing changed/);
    assert.equal(h.ci.requests.filter((r) => r.method === 'PATCH').length, patches);
  });

  it('refuses a number that is not whole, inline, before the ack', async () => {
    const opened = await openEditor('settings rails/rails');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    const values = untouched(editor);
    values['settings.value.maximum_number_of_builds'] = { value: { type: 'number_input', value: '2.5' } };
    const ack = await submit(opened.id, editor, values);
    assert.deepEqual(ack, {
      response_action: 'errors',
      errors: { 'settings.value.maximum_number_of_builds': 'Enter a whole number.' },
    });
  });

  it('with --quiet the modal is the only confirmation', async () => {
    const opened = await openEditor('settings rails/rails --quiet');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    const values = untouched(editor);
    values['settings.value.maximum_number_of_builds'] = { value: { type: 'number_input', value: '5' } };
    const posts = h.slack.callsTo('chat.postMessage').length;
    await submit(opened.id, editor, values);
    await modalUpdate(h, opened.id, { matching: /Saved the settings/ });
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
    assert.equal(h.ci.state.getSettings(891).maximum_number_of_builds, 5);
  });

  it('the Settings button of /ci repo opens the same editor, as the person who clicks', async () => {
    const { responseUrl } = await h.command('repo rails/rails');
    const settings = elementOf(await h.answer(responseUrl), 'settings.open');
    const since = h.slack.calls.length;
    const click = await h.click({ actionId: String(settings.action_id), value: String(settings.value) });
    assertAckedAtOnce(click.ack);
    const opened = await openedModal(h, { since });
    await modalUpdate(h, opened.id, { matching: /view\.settings/ });
  });

  it('the Settings button asks an unlinked clicker to link, and opens nothing', async () => {
    const { responseUrl } = await h.command('repo rails/rails');
    const settings = elementOf(await h.answer(responseUrl), 'settings.open');
    const opens = h.slack.callsTo('views.open').length;
    const click = await h.click({
      userId: 'U0NOBODY',
      actionId: String(settings.action_id),
      value: String(settings.value),
    });
    elementOf(await h.answer(click.responseUrl), 'account.link');
    assert.equal(h.slack.callsTo('views.open').length, opens);
  });

  it('the Settings button acts as the clicker: someone without access sees why in the modal', async () => {
    const { responseUrl } = await h.command('repo rails/rails');
    const settings = elementOf(await h.answer(responseUrl), 'settings.open');
    const since = h.slack.calls.length;
    await h.click({
      userId: 'U0VISITOR',
      actionId: String(settings.action_id),
      value: String(settings.value),
    });
    const opened = await openedModal(h, { since });
    await modalUpdate(h, opened.id, {
      matching: /\(visitor\) is not allowed to edit the settings of rails\/rails/,
    });
  });

  it('answers tampered button values without acting', async () => {
    for (const actionId of ['settings.open', 'caches.delete', 'env.delete']) {
      const before = h.ci.requests.length;
      const click = await h.click({ actionId, value: '{"d":"nowhere"}' });
      assert.match(String((await h.answer(click.responseUrl)).text), /out of date/, actionId);
      assert.equal(h.ci.requests.length, before);
    }
  });

  it('shows in the modal that someone without access cannot edit the settings', async () => {
    const opened = await openEditor('settings rails/rails', 'U0VISITOR');
    const view = await modalUpdate(h, opened.id, { matching: /not allowed/ });
    assert.match(JSON.stringify(view), /\(visitor\) is not allowed to edit the settings of rails\/rails/);
  });

  it('a forged form from someone without admin rights changes nothing', async () => {
    const opened = await openEditor('settings rails/rails');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    const values = untouched(editor);
    values['settings.value.maximum_number_of_builds'] = { value: { type: 'number_input', value: '9' } };
    await submit(opened.id, editor, values, 'U0VISITOR');
    await modalUpdate(h, opened.id, {
      matching: /\(visitor\) is not allowed to change the settings of rails\/rails/,
    });
    assert.notEqual(h.ci.state.getSettings(891).maximum_number_of_builds, 9);
  });

  it('shows in the modal when the repository is not there', async () => {
    const opened = await openEditor('settings nobody/nothing');
    await modalUpdate(h, opened.id, { matching: /could not find nobody\/nothing/ });
  });

  it('asks an unlinked user to link, without a modal or a CI call', async () => {
    const before = h.ci.requests.length;
    const opens = h.slack.callsTo('views.open').length;
    const { responseUrl } = await h.command('settings rails/rails', { userId: 'U0NOBODY' });
    elementOf(await h.answer(responseUrl), 'account.link');
    assert.equal(h.slack.callsTo('views.open').length, opens);
    assert.equal(h.ci.requests.length, before);
  });

  it('answers a missing repository with the usage line', async () => {
    const { responseUrl } = await h.command('settings');
    assert.match(visibleText(await h.answer(responseUrl)), /\/ci settings/);
  });

  it('fits whatever a service sends (150 keys, odd names) into one modal', async () => {
    const settings: Record<string, unknown> = {};
    for (let i = 0; i < 80; i++) settings[`flag_${i}`] = i % 2 === 0;
    for (let i = 0; i < 60; i++) settings[`limit_${i}`] = i;
    settings['<!channel>'] = true;
    settings.nothing_here = null;
    settings.label = 'text <!here>';
    h.ci.fault(
      { method: 'GET', path: '/repos/891/settings' },
      { status: 200, times: 1, body: JSON.stringify({ settings }) },
    );
    const opened = await openEditor('settings rails/rails');
    const editor = await modalUpdate(h, opened.id, { matching: /view\.settings/ });
    assert.ok((editor.blocks as unknown[]).length <= 100);
    assert.ok(String(editor.private_metadata).length <= 3000);
    const shown = shownText({ blocks: editor.blocks });
    assert.match(shown, /Not editable here/);
    assert.match(shown, /&lt;!channel&gt;/);
    assert.doesNotMatch(shown, /<!channel>|<!here>/);
    assertSlackAccepted(h);
  });
});

describe('/ci caches', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
    const evil = h.ci.state.addRepo({ slug: 'evil/caches', id: 7901 });
    h.ci.state.grant('rkh', evil, 'admin');
    h.ci.state.addCache(evil, { branch: '<!channel>', slug: 'cache-<!here>', size: 1536 });
    for (let i = 0; i < 120; i++) {
      h.ci.state.addCache(evil, {
        branch: `branch-${i}`,
        slug: `cache--${'x'.repeat(100)}-${i}`,
        size: 1024 * i,
      });
    }
  });
  after(() => h.close());

  it('lists caches with branch, size and age, privately, with a Delete button that confirms', async () => {
    const { ack, responseUrl } = await h.command('caches rails/rails');
    assertAckedAtOnce(ack);
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    const text = visibleText(answer);
    assert.match(text, /cache--rvm-1\.9\.3--gemfile-Gemfile/);
    assert.match(text, /4-0-stable/);
    assert.match(text, /18 MB/);
    assert.match(text, /54 MB in all/);
    const remove = elementOf(answer, 'caches.delete');
    assert.match(remove.confirm?.text?.text ?? '', /3 caches \(54 MB\) of rails\/rails on every branch/);
    assertSlackAccepted(h);
  });

  it('passes --branch and --match to the service', async () => {
    const { responseUrl } = await h.command('caches rails/rails --branch master --match 2.0.0');
    const text = visibleText(await h.answer(responseUrl));
    assert.match(text, /1 cache on branch `master` whose names contain `2\.0\.0`/);
    const sent = h.ci.requests.findLast((r) => r.path === '/repos/891/caches');
    assert.equal(sent?.query.get('branch'), 'master');
    assert.equal(sent?.query.get('match'), '2.0.0');
  });

  it('escapes cache names and branches, and fits 120 caches', async () => {
    const { responseUrl } = await h.command('cache evil/caches');
    const answer = await h.answer(responseUrl);
    const text = visibleText(answer);
    assert.doesNotMatch(text, /<!channel>|<!here>/);
    assert.match(text, /cache-&lt;!here&gt;/);
    assert.match(text, /showing \d+ of 121 caches/);
    assertSlackAccepted(h);
  });

  it('delete asks first: the dialog repeats the filter, the count and the size', async () => {
    const deletes = h.ci.requests.filter((r) => r.method === 'DELETE').length;
    const { responseUrl } = await h.command('caches rails/rails delete --branch master');
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    const remove = elementOf(answer, 'caches.delete');
    assert.equal(
      remove.confirm?.text?.text,
      'This deletes 2 caches (37 MB) of rails/rails on branch `master`.',
    );
    assert.equal(h.ci.requests.filter((r) => r.method === 'DELETE').length, deletes);
  });

  it('a click by someone without rights deletes nothing and says why', async () => {
    const { responseUrl } = await h.command('caches rails/rails delete --branch master');
    const remove = elementOf(await h.answer(responseUrl), 'caches.delete');
    const click = await h.click({
      userId: 'U0VISITOR',
      actionId: String(remove.action_id),
      value: String(remove.value),
    });
    assert.match(
      String((await h.answer(click.responseUrl)).text),
      /\(visitor\) is not allowed to delete the caches of rails\/rails/,
    );
    assert.equal(h.ci.state.cachesOf(891).length, 3);
  });

  it('a click by someone unlinked asks them to link and calls nothing', async () => {
    const { responseUrl } = await h.command('caches rails/rails delete');
    const remove = elementOf(await h.answer(responseUrl), 'caches.delete');
    const before = h.ci.requests.length;
    const click = await h.click({
      userId: 'U0NOBODY',
      actionId: String(remove.action_id),
      value: String(remove.value),
    });
    elementOf(await h.answer(click.responseUrl), 'account.link');
    assert.equal(h.ci.requests.length, before);
  });

  it('the click deletes with the same filter and announces it', async () => {
    const { responseUrl } = await h.command('caches rails/rails delete --branch master');
    const remove = elementOf(await h.answer(responseUrl), 'caches.delete');
    const click = await h.click({ actionId: String(remove.action_id), value: String(remove.value) });
    const answer = await h.answer(click.responseUrl);
    assert.equal(answer.response_type, 'in_channel');
    assert.equal(
      answer.text,
      `<@${FAKE_IDENTITY.userId}> deleted 2 caches (37 MB) of <https://app.travis-ci.com/github/rails/rails|rails/rails> on branch \`master\``,
    );
    const sent = h.ci.requests.findLast((r) => r.method === 'DELETE');
    assert.equal(sent?.path, '/repos/rails/rails/caches');
    assert.equal(sent?.query.get('branch'), 'master');
    assert.equal(sent?.query.get('match'), null);
    assert.deepEqual(
      h.ci.state.cachesOf(891).map((c) => c.branch),
      ['4-0-stable'],
    );
  });

  it('with --quiet the click answers privately', async () => {
    const { responseUrl } = await h.command('caches rails/rails delete --quiet');
    const remove = elementOf(await h.answer(responseUrl), 'caches.delete');
    const click = await h.click({ actionId: String(remove.action_id), value: String(remove.value) });
    const answer = await h.answer(click.responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(String(answer.text), /^Deleted 1 cache \(17 MB\) of/);
    assert.equal(h.ci.state.cachesOf(891).length, 0);
  });

  it('says there is nothing to delete, without a button', async () => {
    const { responseUrl } = await h.command('caches rails/rails delete --match nothing-like-this');
    const answer = await h.answer(responseUrl);
    assert.match(String(answer.text), /nothing to delete/);
    assert.equal(answer.blocks, undefined);
  });

  it('tells someone without access that their account cannot list them', async () => {
    const { responseUrl } = await h.command('caches evil/caches', { userId: 'U0VISITOR' });
    assert.match(
      String((await h.answer(responseUrl)).text),
      /\(visitor\) is not allowed to list the caches of evil\/caches/,
    );
  });

  it('asks an unlinked user to link', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('caches rails/rails', { userId: 'U0NOBODY' });
    elementOf(await h.answer(responseUrl), 'account.link');
    assert.equal(h.ci.requests.length, before);
  });

  it('says when the repository is not there', async () => {
    const { responseUrl } = await h.command('caches nobody/nothing');
    assert.match(String((await h.answer(responseUrl)).text), /could not find nobody\/nothing/);
  });

  it('answers a malformed option with the usage line', async () => {
    const { responseUrl } = await h.command('caches rails/rails --branch');
    assert.match(visibleText(await h.answer(responseUrl)), /\/ci caches/);
  });

  it('repeats a filter that tries to ping the channel without pinging it', async () => {
    const { responseUrl } = await h.command('caches rails/rails --branch <!channel>');
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.doesNotMatch(visibleText(answer), /<!channel>/);
  });
});
