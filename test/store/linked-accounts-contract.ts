import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createLogger } from '../../src/log.js';
import { LinkedAccounts } from '../../src/store/linked-accounts.js';
import { TokenCipher } from '../../src/store/token-cipher.js';
import type { MakeKv } from './harness.js';

export const TOKEN = 'ghp_LinkedTokenPlainText0123456789abcdEF';
const NOW = new Date('2030-02-03T04:05:06.000Z');
const KEY = Buffer.alloc(32, 9);

const alice = { teamId: 'T1', userId: 'UALICE', deployment: 'com', ciLogin: 'alice', ciUserId: 11 } as const;

/** Log lines written through the app's own logger (with its redaction), parsed. */
export function captureLogs(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('warn', { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function setUp(makeKv: MakeKv, t: TestContext) {
  const store = await makeKv(t);
  const logs = captureLogs();
  const cipher = new TokenCipher([KEY]);
  const accounts = new LinkedAccounts(store.kv, cipher, () => NOW, logs.logger);
  return { ...store, cipher, accounts, logs };
}

/** The behaviour of LinkedAccounts, whatever Kv it runs on. */
export function runLinkedAccountsContract(name: string, makeKv: MakeKv): void {
  describe(`LinkedAccounts contract: ${name}`, () => {
    it('links an account and reads it back, with its token', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      const linked = await accounts.link({ ...alice, token: TOKEN });
      const expected = { ...alice, linkedAt: NOW.toISOString() };
      assert.deepEqual(linked, expected);
      assert.deepEqual(await accounts.get('T1', 'UALICE', 'com'), expected);
      assert.equal(await accounts.token('T1', 'UALICE', 'com'), TOKEN);
      assert.deepEqual(await accounts.list('T1', 'UALICE'), [expected]);
    });

    it('answers "not linked" for users, teams and deployments without a link', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      await accounts.link({ ...alice, token: TOKEN });
      assert.equal(await accounts.get('T1', 'UALICE', 'org'), undefined);
      assert.equal(await accounts.get('T2', 'UALICE', 'com'), undefined);
      assert.equal(await accounts.token('T1', 'UBOB', 'com'), undefined);
      assert.deepEqual(await accounts.list('T1', 'UBOB'), []);
    });

    it('keeps one link per deployment and lists them in deployment order', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      await accounts.link({ ...alice, deployment: 'org', ciUserId: 22, token: 'org-token' });
      await accounts.link({ ...alice, token: TOKEN });
      const list = await accounts.list('T1', 'UALICE');
      assert.deepEqual(
        list.map((a) => [a.deployment, a.ciUserId]),
        [
          ['com', 11],
          ['org', 22],
        ],
      );
      assert.equal(await accounts.token('T1', 'UALICE', 'org'), 'org-token');
      assert.equal(await accounts.token('T1', 'UALICE', 'com'), TOKEN);
    });

    it('relinking replaces the account, its token and its login index entry', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      await accounts.link({ ...alice, token: TOKEN });
      await accounts.link({ ...alice, ciLogin: 'alice-new', ciUserId: 12, token: 'second-token' });
      assert.equal((await accounts.get('T1', 'UALICE', 'com'))?.ciLogin, 'alice-new');
      assert.equal(await accounts.token('T1', 'UALICE', 'com'), 'second-token');
      assert.deepEqual(await accounts.findByCiLogin('T1', 'com', 'alice'), []);
      assert.deepEqual(
        (await accounts.findByCiLogin('T1', 'com', 'alice-new')).map((a) => a.userId),
        ['UALICE'],
      );
    });

    it('unlinks', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      await accounts.link({ ...alice, token: TOKEN });
      await accounts.link({ ...alice, deployment: 'org', token: TOKEN });
      assert.equal(await accounts.unlink('T1', 'UALICE', 'com'), true);
      assert.equal(await accounts.unlink('T1', 'UALICE', 'com'), false);
      assert.equal(await accounts.get('T1', 'UALICE', 'com'), undefined);
      assert.equal(await accounts.token('T1', 'UALICE', 'com'), undefined);
      assert.deepEqual(await accounts.findByCiLogin('T1', 'com', 'alice'), []);
      assert.deepEqual(
        (await accounts.list('T1', 'UALICE')).map((a) => a.deployment),
        ['org'],
      );
    });

    it('finds the Slack users linked to a CI login, ignoring its case, within one team and deployment', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      await accounts.link({ ...alice, token: TOKEN });
      await accounts.link({ ...alice, userId: 'UALT', ciLogin: 'Alice', token: TOKEN });
      await accounts.link({ ...alice, teamId: 'T2', token: TOKEN });
      await accounts.link({ ...alice, userId: 'UORG', deployment: 'org', token: TOKEN });
      await accounts.link({ ...alice, userId: 'UBOB', ciLogin: 'bob', ciUserId: 13, token: TOKEN });
      const found = await accounts.findByCiLogin('T1', 'com', 'ALICE');
      assert.deepEqual(
        found.map((a) => [a.teamId, a.userId, a.deployment, a.ciLogin]),
        [
          ['T1', 'UALICE', 'com', 'alice'],
          ['T1', 'UALT', 'com', 'Alice'],
        ],
      );
      assert.deepEqual(await accounts.findByCiLogin('T1', 'com', 'nobody'), []);
    });

    it('treats a corrupt record as not linked and logs it without its contents', async (t) => {
      const { kv, accounts, logs } = await setUp(makeKv, t);
      await kv.hset('linked:T1:UALICE', 'com', `{"broken json ${TOKEN}`);
      await kv.hset(
        'linked:T1:UALICE',
        'org',
        JSON.stringify({ v: 1, ciLogin: 'alice', sealedToken: TOKEN }),
      );
      assert.equal(await accounts.get('T1', 'UALICE', 'com'), undefined);
      assert.equal(await accounts.token('T1', 'UALICE', 'org'), undefined);
      assert.deepEqual(await accounts.list('T1', 'UALICE'), []);
      assert.ok(logs.lines.length >= 3);
      for (const line of logs.lines) {
        assert.equal(line.problem, 'invalid_record');
        assert.equal(line.userId, 'UALICE');
      }
      assert.ok(!JSON.stringify(logs.lines).includes(TOKEN));
      assert.equal(await accounts.unlink('T1', 'UALICE', 'com'), true, 'a corrupt link can still be removed');
    });

    it('treats a token sealed under a key no longer configured as not linked', async (t) => {
      const { kv, accounts, logs } = await setUp(makeKv, t);
      const sealed = new LinkedAccounts(kv, TokenCipher.ephemeral(), () => NOW);
      await sealed.link({ ...alice, token: TOKEN });
      assert.equal(await accounts.get('T1', 'UALICE', 'com'), undefined);
      assert.equal(await accounts.token('T1', 'UALICE', 'com'), undefined);
      assert.deepEqual(await accounts.findByCiLogin('T1', 'com', 'alice'), []);
      assert.equal(logs.lines[0]?.problem, 'unknown_key');
      assert.equal(await sealed.token('T1', 'UALICE', 'com'), TOKEN, 'the record itself is left in place');
    });

    it('does not open a sealed token copied into another user slot', async (t) => {
      const { kv, accounts, logs } = await setUp(makeKv, t);
      await accounts.link({ ...alice, token: TOKEN });
      const record = await kv.hget('linked:T1:UALICE', 'com');
      assert.ok(record);
      await kv.hset('linked:T1:UMALLORY', 'com', record);
      await kv.hset('linked:T1:UALICE', 'org', record);
      assert.equal(await accounts.token('T1', 'UMALLORY', 'com'), undefined);
      assert.equal(await accounts.token('T1', 'UALICE', 'org'), undefined);
      assert.equal(await accounts.token('T1', 'UALICE', 'com'), TOKEN);
      assert.deepEqual(
        logs.lines.map((l) => l.problem),
        ['rejected', 'rejected'],
      );
    });

    it('refuses bad input without repeating the token', async (t) => {
      const { accounts } = await setUp(makeKv, t);
      const bad = [
        { ...alice, teamId: 'T1:UALICE', token: TOKEN },
        { ...alice, userId: '', token: TOKEN },
        { ...alice, ciLogin: ' ', token: TOKEN },
        { ...alice, ciUserId: 0, token: TOKEN },
        { ...alice, deployment: 'nope' as 'com', token: TOKEN },
        { ...alice, token: '' },
      ];
      for (const input of bad) {
        const error = await accounts.link(input).then(
          () => assert.fail('expected a rejection'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof RangeError);
        assert.ok(!error.message.includes(TOKEN));
      }
      await assert.rejects(accounts.get('T1:X', 'U', 'com'), RangeError);
      assert.deepEqual(await accounts.list('T1', 'UALICE'), []);
    });
  });
}
