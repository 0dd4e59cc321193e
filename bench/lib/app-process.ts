/**
 * The real app in its own process for benchmarks: configured from the environment like
 * production (main.ts), plus one linked bench user. Prints {"ready": {"port": …}}.
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createServices } from '../../src/services.js';
import { startSlackApp } from '../../src/slack/app.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';

const config = loadConfig(process.env);
const logger = createLogger('error');
const kv = new RedisKv(createRedis(config.redisUrl ?? 'redis://127.0.0.1:6379', logger), {
  prefix: process.env.BENCH_PREFIX ?? 'bench:',
});
const services = createServices({ config, logger, kv, storeKind: 'redis', userAgent: 'ci-slack-bench/0' });
await services.accounts.link({
  teamId: process.env.BENCH_TEAM ?? 'T0TEST',
  userId: process.env.BENCH_USER ?? 'U0BENCH',
  deployment: 'com',
  ciLogin: 'rkh',
  ciUserId: 267,
  token: 'token-rkh',
});
const running = await startSlackApp(services, 0);
console.log(JSON.stringify({ ready: { port: running.port } }));
process.on('SIGTERM', async () => {
  await running.stop();
  services.outbox.close();
  await services.realtime.close();
  await services.ci.close();
  await kv.close();
  process.exit(0);
});
