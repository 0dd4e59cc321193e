/**
 * Who the fake workspace and app are. Shared by the fake and by test/helpers/slack-requests.ts, so
 * the requests a test signs name the same team, app and bot the fake answers as.
 */
export const FAKE_IDENTITY = {
  botToken: 'xoxb-test-token',
  appToken: 'xapp-test-token',
  teamId: 'T0TEST',
  teamDomain: 'fake-team',
  teamName: 'Fake Team',
  botUserId: 'UBOT',
  botId: 'B0TEST',
  botName: 'ci-bot',
  appId: 'A0TEST',
  userId: 'U0USER',
  userName: 'grace',
  channelId: 'C0CHANNEL',
  channelName: 'builds',
  /** The deprecated verification token Slack still puts in every payload. */
  verificationToken: 'fake-verification-token',
} as const;

export interface Identity {
  botToken: string;
  appToken: string;
  teamId: string;
  teamDomain: string;
  teamName: string;
  botUserId: string;
  botId: string;
  botName: string;
  appId: string;
}
