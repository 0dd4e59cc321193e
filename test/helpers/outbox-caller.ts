import { createSlackJsonCaller, type SlackCaller } from '../../src/slack/outbox/index.js';
import { FAKE_IDENTITY, type FakeSlack } from '../fakes/slack/index.js';

/** The Web API client the app gives its outbox, pointed at a fake Slack. */
export function outboxCallerFor(slack: FakeSlack): SlackCaller {
  return createSlackJsonCaller({
    token: FAKE_IDENTITY.botToken,
    apiUrl: slack.apiUrl,
    userAgent: 'ci-slack-test',
  });
}
