import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import {
  type SubscriptionInput,
  Subscriptions,
  subscriptionId,
  targetKeyOf,
} from '../../src/store/subscriptions.js';
import type { MakeKv } from './harness.js';

const NOW = new Date('2030-02-03T04:05:06.000Z');

const railsInOps: SubscriptionInput = {
  teamId: 'T1',
  channelId: 'COPS',
  deployment: 'com',
  target: { kind: 'repo', repoId: 891, slug: 'rails/rails' },
  filters: { only: 'failures', branches: ['main'] },
  createdBy: 'UALICE',
};
const octoInOps: SubscriptionInput = {
  ...railsInOps,
  target: {
    kind: 'owner',
    owner: 'octo',
    repos: [
      { id: 2, slug: 'octo/lib' },
      { id: 1, slug: 'octo/app' },
    ],
  },
  filters: {},
};

async function setUp(makeKv: MakeKv, t: TestContext) {
  const store = await makeKv(t);
  return { ...store, subs: new Subscriptions(store.kv, () => NOW) };
}

/** The behaviour of Subscriptions, whatever Kv it runs on. */
export function runSubscriptionsContract(name: string, makeKv: MakeKv): void {
  describe(`Subscriptions contract: ${name}`, () => {
    it('stores a repository subscription and finds it by channel, creator, repository and deployment', async (t) => {
      const { subs } = await setUp(makeKv, t);
      const { subscription, previous } = await subs.upsert(railsInOps);
      assert.equal(previous, undefined);
      const expected = {
        ...railsInOps,
        id: subscriptionId('T1', 'COPS', 'com', { kind: 'repo', repoId: 891 }),
        createdAt: NOW.toISOString(),
        status: 'active',
      };
      assert.deepEqual(subscription, expected);
      assert.deepEqual(await subs.get(subscription.id), expected);
      assert.deepEqual(await subs.forChannel('T1', 'COPS'), [expected]);
      assert.deepEqual(await subs.createdBy('T1', 'UALICE'), [expected]);
      assert.deepEqual(await subs.forRepo('com', 891), [expected]);
      assert.deepEqual([...(await subs.watched('com')).entries()], [[891, [expected]]]);
      assert.deepEqual(await subs.all(), [expected]);

      assert.deepEqual(await subs.forChannel('T1', 'COTHER'), []);
      assert.deepEqual(await subs.forChannel('T2', 'COPS'), []);
      assert.deepEqual(await subs.createdBy('T1', 'UBOB'), []);
      assert.deepEqual(await subs.forRepo('org', 891), []);
      assert.equal((await subs.watched('org')).size, 0);
    });

    it('keeps a stable id per team, channel, deployment and target (owners without case)', () => {
      const repo = { kind: 'repo', repoId: 891 } as const;
      const id = subscriptionId('T1', 'C1', 'com', repo);
      assert.equal(subscriptionId('T1', 'C1', 'com', repo), id);
      assert.match(id, /^[A-Za-z0-9_-]{10,40}$/);
      for (const other of [
        subscriptionId('T2', 'C1', 'com', repo),
        subscriptionId('T1', 'C2', 'com', repo),
        subscriptionId('T1', 'C1', 'org', repo),
        subscriptionId('T1', 'C1', 'com', { kind: 'repo', repoId: 892 }),
      ]) {
        assert.notEqual(other, id);
      }
      assert.equal(
        subscriptionId('T1', 'C1', 'com', { kind: 'owner', owner: 'Octo' }),
        subscriptionId('T1', 'C1', 'com', { kind: 'owner', owner: 'octo' }),
      );
    });

    it('subscribing again replaces filters and creator, and says what it replaced', async (t) => {
      const { subs } = await setUp(makeKv, t);
      const first = await subs.upsert(railsInOps);
      const second = await subs.upsert({ ...railsInOps, filters: { threads: false }, createdBy: 'UBOB' });
      assert.equal(second.subscription.id, first.subscription.id);
      assert.deepEqual(second.previous, first.subscription);
      assert.deepEqual(second.subscription.filters, { threads: false });
      assert.equal(second.subscription.createdBy, 'UBOB');
      assert.equal((await subs.forChannel('T1', 'COPS')).length, 1);
      assert.deepEqual(await subs.createdBy('T1', 'UALICE'), []);
      assert.deepEqual(
        (await subs.createdBy('T1', 'UBOB')).map((s) => s.id),
        [first.subscription.id],
      );
      assert.deepEqual(await subs.forRepo('com', 891), [second.subscription]);
    });

    it('keeps deployments and channels apart', async (t) => {
      const { subs } = await setUp(makeKv, t);
      await subs.upsert(railsInOps);
      await subs.upsert({ ...railsInOps, deployment: 'org' });
      await subs.upsert({ ...railsInOps, channelId: 'CDEV' });
      assert.equal((await subs.forChannel('T1', 'COPS')).length, 2);
      assert.equal((await subs.forRepo('com', 891)).length, 2);
      assert.equal((await subs.forRepo('org', 891)).length, 1);
      assert.equal((await subs.all()).length, 3);
      assert.equal((await subs.createdBy('T1', 'UALICE')).length, 3);
    });

    it('removes a subscription from every listing', async (t) => {
      const { subs } = await setUp(makeKv, t);
      const { subscription } = await subs.upsert(railsInOps);
      await subs.upsert({ ...railsInOps, channelId: 'CDEV' });
      assert.equal(await subs.remove('T1', 'COPS', 'com', targetKeyOf(subscription.target)), true);
      assert.equal(await subs.remove('T1', 'COPS', 'com', targetKeyOf(subscription.target)), false);
      assert.equal(await subs.get(subscription.id), undefined);
      assert.deepEqual(await subs.forChannel('T1', 'COPS'), []);
      assert.deepEqual(
        (await subs.forRepo('com', 891)).map((s) => s.channelId),
        ['CDEV'],
      );
      assert.deepEqual(
        (await subs.createdBy('T1', 'UALICE')).map((s) => s.channelId),
        ['CDEV'],
      );
      assert.equal((await subs.all()).length, 1);
    });

    it('lists an owner subscription under each repository it covers, and refreshes them', async (t) => {
      const { subs } = await setUp(makeKv, t);
      await subs.upsert(railsInOps);
      const { subscription } = await subs.upsert(octoInOps);
      assert.deepEqual(subscription.target, {
        kind: 'owner',
        owner: 'octo',
        repos: [
          { id: 2, slug: 'octo/lib' },
          { id: 1, slug: 'octo/app' },
        ],
      });
      const read = await subs.get(subscription.id);
      assert.deepEqual(
        read?.target.kind === 'owner' ? read.target.repos : [],
        [
          { id: 1, slug: 'octo/app' },
          { id: 2, slug: 'octo/lib' },
        ],
        'read back sorted by slug',
      );
      const watched = await subs.watched('com');
      assert.deepEqual(
        [...watched.keys()].sort((a, b) => a - b),
        [1, 2, 891],
      );
      assert.deepEqual(
        watched.get(1)?.map((s) => s.id),
        [subscription.id],
      );
      assert.deepEqual(
        (await subs.forRepo('com', 2)).map((s) => s.id),
        [subscription.id],
      );

      const refreshed = await subs.refreshOwner(subscription.id, [
        { id: 2, slug: 'octo/lib' },
        { id: 3, slug: 'octo/new' },
      ]);
      assert.deepEqual(refreshed?.target, {
        kind: 'owner',
        owner: 'octo',
        repos: [
          { id: 2, slug: 'octo/lib' },
          { id: 3, slug: 'octo/new' },
        ],
      });
      assert.deepEqual(await subs.forRepo('com', 1), []);
      assert.deepEqual(
        (await subs.forRepo('com', 3)).map((s) => s.id),
        [subscription.id],
      );
      assert.deepEqual(
        [...(await subs.watched('com')).keys()].sort((a, b) => a - b),
        [2, 3, 891],
      );
      assert.equal(await subs.refreshOwner('missing', []), undefined);
      const rails = subscriptionId('T1', 'COPS', 'com', { kind: 'repo', repoId: 891 });
      assert.equal(await subs.refreshOwner(rails, [{ id: 5, slug: 'x/y' }]), undefined, 'not an owner one');

      assert.equal(await subs.remove('T1', 'COPS', 'com', { kind: 'owner', owner: 'OCTO' }), true);
      assert.deepEqual(await subs.forRepo('com', 2), []);
      assert.deepEqual([...(await subs.watched('com')).keys()], [891]);
    });

    it('re-subscribing an owner drops repositories it no longer covers', async (t) => {
      const { subs } = await setUp(makeKv, t);
      await subs.upsert(octoInOps);
      await subs.upsert({
        ...octoInOps,
        target: { kind: 'owner', owner: 'octo', repos: [{ id: 1, slug: 'octo/app' }] },
      });
      assert.deepEqual(await subs.forRepo('com', 2), []);
      assert.equal((await subs.forRepo('com', 1)).length, 1);
    });

    it('pauses once: only the first of many concurrent calls is told it paused', async (t) => {
      const { subs, peer } = await setUp(makeKv, t);
      const other = new Subscriptions(await peer(), () => NOW);
      const { subscription } = await subs.upsert(railsInOps);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other : subs).pause(subscription.id, 'token_rejected')),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal(await subs.pause(subscription.id, 'token_rejected'), false);
      assert.equal(await subs.pause('missing', 'token_rejected'), false);

      const paused = await subs.get(subscription.id);
      assert.equal(paused?.status, 'paused');
      assert.equal(paused?.pausedReason, 'token_rejected');
      assert.equal(paused?.pausedAt, NOW.toISOString());
      assert.deepEqual(
        (await subs.forChannel('T1', 'COPS')).map((s) => s.status),
        ['paused'],
      );
      assert.deepEqual(await subs.forRepo('com', 891), [], 'the watcher skips paused subscriptions');
      assert.equal((await subs.watched('com')).size, 0);
      assert.equal((await subs.all())[0]?.status, 'paused');

      const again = await subs.upsert({ ...railsInOps, createdBy: 'UBOB' });
      assert.equal(again.previous?.status, 'paused');
      assert.equal(again.subscription.status, 'active');
      assert.equal((await subs.get(subscription.id))?.status, 'active');
      assert.equal((await subs.forRepo('com', 891)).length, 1);
      assert.equal(await subs.pause(subscription.id, 'token_rejected'), true, 'a new activation pauses anew');
    });

    it('reads records that do not parse, or sit under another id, as absent', async (t) => {
      const { subs, kv } = await setUp(makeKv, t);
      const { subscription } = await subs.upsert(railsInOps);
      const good = await kv.get(`sub:${subscription.id}`);
      await kv.set(`sub:${subscription.id}`, '{"v":1,"id":');
      assert.equal(await subs.get(subscription.id), undefined);
      assert.deepEqual(await subs.forChannel('T1', 'COPS'), []);
      assert.equal((await subs.watched('com')).size, 0);
      assert.deepEqual(await subs.all(), []);

      const other = (await subs.upsert({ ...railsInOps, channelId: 'CDEV' })).subscription;
      await kv.set(`sub:${other.id}`, good ?? '');
      assert.equal(await subs.get(other.id), undefined, 'a record copied to another id does not count');
      await kv.set(`sub:${subscription.id}`, good ?? '');
      assert.equal((await subs.get(subscription.id))?.id, subscription.id);
    });

    it('refuses malformed input', async (t) => {
      const { subs } = await setUp(makeKv, t);
      await assert.rejects(subs.upsert({ ...railsInOps, channelId: 'C:1' }), RangeError);
      await assert.rejects(
        subs.upsert({ ...railsInOps, target: { kind: 'repo', repoId: -1, slug: 'a/b' } }),
        /target/,
      );
      await assert.rejects(subs.forChannel('T1', 'a:b'), RangeError);
      assert.deepEqual(await subs.all(), []);
    });
  });
}
