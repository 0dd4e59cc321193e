import type { webApi } from '@slack/bolt';
import { z } from 'zod';
import { MAX_MESSAGE_TEXT } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { fitBlocks } from '../views/fit-blocks.js';
import type { Job } from './jobs.js';
import type { PostedMessage } from './types.js';

/** Text and blocks cut to Slack's limits, so a message is never refused for its size. */
function content(text: string, blocks: Parameters<typeof fitBlocks>[0] | undefined) {
  return {
    text: truncate(text, MAX_MESSAGE_TEXT, { keep: 'start' }),
    ...(blocks !== undefined ? { blocks: fitBlocks(blocks) } : {}),
  };
}

/** Makes the one Web API call a job stands for. */
export async function callSlack(job: Job): Promise<webApi.WebAPICallResult> {
  const client = job.workspace.client();
  switch (job.kind) {
    case 'post':
      return client.apiCall(job.method, {
        channel: job.channel,
        ...content(job.text, job.blocks),
        ...(job.threadTs !== undefined ? { thread_ts: job.threadTs } : {}),
      });
    case 'edit':
      return client.apiCall(job.method, {
        channel: job.channel,
        ts: job.ts,
        ...content(job.text, job.blocks),
      });
    case 'call':
      return client.apiCall(job.method, job.args);
  }
}

const postedSchema = z.object({ channel: z.string().min(1), ts: z.string().min(1) });

/** The `{ channel, ts }` of chat.postMessage's answer, or undefined when it lacks them. */
export function postedMessage(result: webApi.WebAPICallResult): PostedMessage | undefined {
  const parsed = postedSchema.safeParse(result);
  return parsed.success ? { channel: parsed.data.channel, ts: parsed.data.ts } : undefined;
}
