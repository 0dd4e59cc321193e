import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { commandsDoc } from '../scripts/commands-doc.js';
import { ENV_VARIABLES, loadConfig } from '../src/config.js';
import { SLASH_COMMAND } from '../src/slack/commands/register.js';
import { SHORTCUTS } from '../src/slack/ids.js';

const readDoc = (path: string) => readFile(new URL(`../${path}`, import.meta.url), 'utf8');

describe('docs', () => {
  it('docs/commands.md is what the command table generates (npx tsx scripts/commands-doc.ts > docs/commands.md)', async () => {
    const onDisk = await readFile(new URL('../docs/commands.md', import.meta.url), 'utf8');
    assert.equal(onDisk, commandsDoc());
  });

  it('the Docker image runs the app with the same node flags and environment as npm start', async () => {
    const [pkg, dockerfile] = await Promise.all([readDoc('package.json'), readDoc('Dockerfile')]);
    const words = (JSON.parse(pkg) as { scripts: { start: string } }).scripts.start.split(/\s+/);
    const settings = words.filter((word) => /^[A-Z_]+=/.test(word));
    // `exec`: the shell npm runs the script in becomes node, so signals reach the app.
    assert.equal(words[settings.length], 'exec', 'the start script execs node');
    const cmd = dockerfile.match(/^CMD (\[.*\])$/m)?.[1];
    assert.ok(cmd, 'the Dockerfile has an exec-form CMD');
    assert.deepEqual(JSON.parse(cmd), words.slice(settings.length + 1));
    const env = dockerfile.match(/^ENV (?:.*\\\n)*.*$/m)?.[0] ?? '';
    for (const setting of settings) assert.match(env, new RegExp(`\\b${setting}\\b`), `ENV sets ${setting}`);
  });

  it('manifest.yml declares what the app listens to: /ci, the shortcut, its events, link hosts and scopes', async () => {
    const manifest = parse(await readDoc('manifest.yml')) as {
      features: {
        slash_commands: Array<{ command: string }>;
        shortcuts: Array<{ callback_id: string; type: string }>;
        unfurl_domains: string[];
      };
      oauth_config: { scopes: { bot: string[] } };
      settings: { event_subscriptions: { bot_events: string[] }; interactivity: { is_enabled: boolean } };
    };
    assert.deepEqual(
      manifest.features.slash_commands.map((c) => c.command),
      [SLASH_COMMAND],
    );
    assert.deepEqual(
      manifest.features.shortcuts.map((c) => [c.type, c.callback_id]),
      [['message', SHORTCUTS.lintMessage]],
    );
    assert.deepEqual([...manifest.settings.event_subscriptions.bot_events].sort(), [
      'app_home_opened',
      'link_shared',
    ]);
    assert.equal(manifest.settings.interactivity.is_enabled, true);
    const config = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' });
    for (const deployment of Object.values(config.ci.deployments)) {
      if (!deployment) continue;
      assert.ok(
        manifest.features.unfurl_domains.includes(new URL(deployment.webUrl).hostname),
        `${deployment.webUrl} unfurls`,
      );
    }
    for (const scope of ['commands', 'chat:write', 'im:write', 'links:read', 'links:write']) {
      assert.ok(manifest.oauth_config.scopes.bot.includes(scope), scope);
    }
  });

  it('.env.example and the README name every environment variable the app reads', async () => {
    const [example, readme] = await Promise.all([readDoc('.env.example'), readDoc('README.md')]);
    assert.ok(ENV_VARIABLES.length > 20, 'the contract was read');
    for (const name of ENV_VARIABLES) {
      assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), `.env.example lacks ${name}`);
      assert.ok(readme.includes(`\`${name}\``), `README.md lacks ${name}`);
    }
  });
});
