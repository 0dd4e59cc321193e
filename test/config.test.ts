import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, webUrlFromApiUrl } from '../src/config.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const minimal = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_SIGNING_SECRET: 'shh-secret-value' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(minimal);
    assert.equal(config.slack.mode, 'http');
    assert.equal(config.slack.apiUrl, 'https://slack.com/api/');
    assert.equal(config.port, 3000);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.ci.defaultDeployment, 'com');
    assert.equal(config.ci.mediaType, 'application/vnd.travis-ci.2.1+json');
    assert.equal(config.ci.versionHeader, 'Travis-API-Version');
    assert.deepEqual(config.ci.deployments.com, {
      name: 'com',
      apiUrl: 'https://api.travis-ci.com',
      webUrl: 'https://app.travis-ci.com',
    });
    assert.equal(config.ci.deployments.org?.apiUrl, 'https://api.travis-ci.org');
    assert.equal(config.ci.deployments.enterprise, undefined);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.logUpdateIntervalMs, 2000);
    assert.equal(config.notifyPollIntervalMs, 15000);
  });

  it('uses Socket Mode when an app token is set, and then needs no signing secret', () => {
    const config = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1-abc' });
    assert.equal(config.slack.mode, 'socket');
  });

  it('reports every problem at once and never repeats a secret value', () => {
    const problems = problemsOf({
      SLACK_BOT_TOKEN: 'not-a-bot-token-SECRET1',
      PORT: 'eighty',
      REDIS_URL: 'http://redis',
      TOKEN_ENCRYPTION_KEY: 'short-SECRET2',
      LOG_LEVEL: 'loud',
      CI_DEFAULT_DEPLOYMENT: 'enterprise',
    });
    const text = problems.join('\n');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'PORT',
      'REDIS_URL',
      'TOKEN_ENCRYPTION_KEY',
      'LOG_LEVEL',
      'CI_DEFAULT_DEPLOYMENT',
    ]) {
      assert.match(text, new RegExp(name), `${name} should be reported`);
    }
    assert.doesNotMatch(text, /SECRET1|SECRET2/);
  });

  it('explains where a missing Slack token comes from', () => {
    const [problem] = problemsOf({});
    assert.match(problem ?? '', /SLACK_BOT_TOKEN is missing.*manifest\.yml.*xoxb-/);
  });

  it('needs an encryption key with Redis, and accepts a rotating list', () => {
    assert.match(
      problemsOf({ ...minimal, REDIS_URL: 'redis://127.0.0.1:6379' }).join(),
      /TOKEN_ENCRYPTION_KEY/,
    );
    const other = Buffer.alloc(32, 9).toString('base64');
    const config = loadConfig({
      ...minimal,
      REDIS_URL: 'redis://x',
      TOKEN_ENCRYPTION_KEY: `${KEY}, ${other}`,
    });
    assert.equal(config.tokenEncryptionKeys.length, 2);
    assert.equal(config.tokenEncryptionKeys[0]?.length, 32);
  });

  it('disables the open-source deployment when its URL is set empty', () => {
    const config = loadConfig({ ...minimal, CI_ORG_API_URL: '' });
    assert.equal(config.ci.deployments.org, undefined);
    assert.match(
      problemsOf({ ...minimal, CI_ORG_API_URL: '', CI_DEFAULT_DEPLOYMENT: 'org' }).join(),
      /CI_ORG_API_URL/,
    );
  });

  it('derives web links from API URLs unless told otherwise', () => {
    assert.equal(webUrlFromApiUrl('https://api.travis-ci.com'), 'https://app.travis-ci.com');
    assert.equal(webUrlFromApiUrl('https://ci.example.com/api/'), 'https://ci.example.com');
    assert.equal(webUrlFromApiUrl('http://127.0.0.1:4000'), 'http://127.0.0.1:4000');
    const config = loadConfig({
      ...minimal,
      CI_ENTERPRISE_API_URL: 'https://ci.corp.example/api',
      CI_COM_WEB_URL: 'https://travis.example/',
    });
    assert.equal(config.ci.deployments.enterprise?.webUrl, 'https://ci.corp.example');
    assert.equal(config.ci.deployments.com?.webUrl, 'https://travis.example');
  });

  it('reads Slack rate budgets per method', () => {
    assert.deepEqual(loadConfig(minimal).slack.budgets, {});
    const config = loadConfig({ ...minimal, SLACK_RATE_BUDGETS: 'chat.update=600, chat.postMessage=120' });
    assert.deepEqual(config.slack.budgets, { 'chat.update': 600, 'chat.postMessage': 120 });
    assert.match(
      problemsOf({ ...minimal, SLACK_RATE_BUDGETS: 'chat.update=lots' }).join(),
      /SLACK_RATE_BUDGETS/,
    );
  });

  it('rejects zero or malformed numbers in plain words', () => {
    const text = problemsOf({ ...minimal, CI_REQUEST_TIMEOUT_MS: '0', LOG_UPDATE_INTERVAL_MS: '1.5' }).join(
      '\n',
    );
    assert.match(text, /CI_REQUEST_TIMEOUT_MS must be greater than 0/);
    assert.match(text, /LOG_UPDATE_INTERVAL_MS must be a whole number/);
  });
});
