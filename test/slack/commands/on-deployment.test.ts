import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommand } from '../../../src/slack/commands/index.js';
import { onDeployment } from '../../../src/slack/commands/on-deployment.js';

const WEB_URLS = { com: 'https://app.travis-ci.com', org: 'https://app.travis-ci.org' };

describe('onDeployment: the same command on another deployment', () => {
  it('takes out any deployment option and names the new one after the command word', () => {
    assert.equal(onDeployment('restart octo/app#12 --org', 'com'), 'restart --com octo/app#12');
    assert.equal(onDeployment('enable —ORG octo/app', 'com'), 'enable --com octo/app');
    assert.equal(onDeployment('env octo/app set TOKEN', 'com'), 'env --com octo/app set TOKEN');
    assert.equal(
      onDeployment('  pubkey octo/app --regenerate --org  ', 'com'),
      'pubkey --com octo/app --regenerate',
    );
  });

  it('keeps quoted text and spacing as typed', () => {
    assert.equal(onDeployment('repos "a  --org b" --org', 'com'), 'repos --com "a  --org b"');
  });

  it('parses to the same command, on the new deployment', () => {
    for (const text of [
      'restart octo/app#12 --org',
      'cancel octo/app#12.3 --quiet --org',
      'env octo/app unset TOKEN --org',
      'caches octo/app delete --branch main --org',
      'sshkey delete octo/app --org',
      'settings octo/app',
    ]) {
      const before = parseCommand(text, { webUrls: WEB_URLS });
      const after = parseCommand(onDeployment(text, 'com'), { webUrls: WEB_URLS });
      assert.ok(before.ok && after.ok, text);
      assert.deepEqual(after.command, { ...before.command, deployment: 'com' }, text);
    }
  });

  it('lets the parser refuse a pasted link of the old deployment rather than run it elsewhere', () => {
    const text = 'restart https://app.travis-ci.org/github/octo/app/builds/12';
    const parsed = parseCommand(onDeployment(text, 'com'), { webUrls: WEB_URLS });
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? '' : parsed.error.message, /name different deployments/);
  });
});
