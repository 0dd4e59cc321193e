/**
 * One app process of the watcher benchmark (bench/watch.ts starts two): a build watcher whose sink
 * reports each update to the parent over IPC with the time it arrived. Settings come from WATCH_*
 * variables; a `stop` message stops the watcher and sends the final stats.
 */
import type { BuildUpdate } from '../src/notify/types.js';
import { createWatcher } from '../src/notify/watcher.js';
import { closeServices, describeUpdate, makeServices, worldConfig } from '../test/notify/watch-harness.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const send = (message: object) => process.send?.(message);
const config = worldConfig(required('WATCH_CI_URL'), required('WATCH_SLACK_URL'), {
  LEASE_TTL_MS: required('WATCH_LEASE_TTL_MS'),
  NOTIFY_POLL_INTERVAL_MS: required('WATCH_POLL_MS'),
  CI_REQUEST_TIMEOUT_MS: '10000',
});
const services = makeServices(config, required('WATCH_PREFIX'));
const watcher = createWatcher(
  services,
  {
    async handle(update: BuildUpdate) {
      send({ type: 'update', change: describeUpdate(update), source: update.source, at: Date.now() });
    },
  },
  { realtime: process.env.WATCH_REALTIME !== 'off' },
);

const cpuAtStart = process.cpuUsage();
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const stats = watcher.stats();
  send({
    type: 'progress',
    held: stats.held.length,
    polls: stats.polls,
    channels: stats.realtimeChannels.length,
  });
}, 250);

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'stop') return;
  clearInterval(sampler);
  void (async () => {
    const stats = watcher.stats();
    await watcher.stop();
    await closeServices(services);
    const cpu = process.cpuUsage(cpuAtStart);
    send({ type: 'final', stats, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: peakRss / 1024 / 1024 });
    process.disconnect();
  })();
});

await watcher.start();
send({ type: 'started', processId: watcher.processId });
