/** A bare Bolt app that only acknowledges /ci: the baseline for ack latency. */
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';

const receiver = new HTTPReceiver({
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? '',
  endpoints: '/slack/events',
});
const app = new App({
  token: process.env.SLACK_BOT_TOKEN,
  receiver,
  logLevel: LogLevel.ERROR,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
});
app.command('/ci', async ({ ack }) => {
  await ack();
});
const server = (await app.start(0)) as import('node:http').Server;
const address = server.address() as import('node:net').AddressInfo;
console.log(JSON.stringify({ ready: { port: address.port } }));
process.on('SIGTERM', async () => {
  await app.stop();
  process.exit(0);
});
