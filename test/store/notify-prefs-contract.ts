import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotifyPrefs } from '../../src/store/notify-prefs.js';
import type { MakeKv } from './harness.js';

const NOW = new Date('2030-02-03T04:05:06.000Z');

export function runNotifyPrefsContract(name: string, makeKv: MakeKv): void {
  describe(`NotifyPrefs contract: ${name}`, () => {
    it('turns direct messages on and off per user, with the identities to match', async (t) => {
      const { kv } = await makeKv(t);
      const prefs = new NotifyPrefs(kv, () => NOW);
      const identities = [{ deployment: 'com' as const, ciLogin: 'rkh', email: 'rkh@example.com' }];
      assert.equal(await prefs.isOn('T1', 'UALICE'), false);
      assert.equal(await prefs.set('T1', 'UALICE', true, identities), false, 'was off');
      assert.equal(await prefs.set('T1', 'UALICE', true, identities), true, 'was on');
      await prefs.set('T1', 'UBOB', true, [{ deployment: 'org', ciLogin: 'bob' }]);
      await prefs.set('T2', 'UCAROL', true);
      assert.equal(await prefs.isOn('T1', 'UALICE'), true);
      assert.deepEqual(await prefs.get('T1', 'UALICE'), {
        teamId: 'T1',
        userId: 'UALICE',
        since: NOW.toISOString(),
        identities,
      });
      assert.deepEqual(
        (await prefs.usersOn('T1')).map((p) => p.userId),
        ['UALICE', 'UBOB'],
      );
      assert.equal(await prefs.set('T1', 'UALICE', false), true);
      assert.equal(await prefs.set('T1', 'UALICE', false), false);
      assert.equal(await prefs.isOn('T1', 'UALICE'), false);
      assert.deepEqual(
        (await prefs.usersOn('T1')).map((p) => p.userId),
        ['UBOB'],
      );
    });

    it('reads an unreadable record as off and refuses bad input', async (t) => {
      const { kv } = await makeKv(t);
      const prefs = new NotifyPrefs(kv, () => NOW);
      await kv.hset('notify-me:T1', 'UALICE', 'not json');
      await kv.hset('notify-me:T1', 'UBOB', '{"v":2}');
      assert.equal(await prefs.isOn('T1', 'UALICE'), false);
      assert.deepEqual(await prefs.usersOn('T1'), []);
      await assert.rejects(prefs.set('T1', 'U:1', true), RangeError);
      await assert.rejects(prefs.set('T1', 'UALICE', true, [{ deployment: 'com', ciLogin: '' }]));
    });
  });
}
