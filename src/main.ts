import { startBackground } from './background.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { createServices } from './services.js';
import { startSlackApp } from './slack/app.js';
import { createKv } from './store/create-kv.js';
import { userAgent } from './version.js';

/** Reads the environment once, builds everything, starts, and stops cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      console.error('\nSee README.md ("Configuration") for every variable.');
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const logger = createLogger(config.logLevel);
  const { kv, kind } = createKv(config, logger);
  const services = createServices({ config, logger, kv, storeKind: kind, userAgent: userAgent() });
  const running = await startSlackApp(services);
  const background = await startBackground(services);
  logger.info({ port: running.port, mode: config.slack.mode, store: kind }, 'ci-slack is running');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await running.stop();
      // Followed logs stop without a final edit; their leases go, so another replica continues them.
      await background.stop();
      // Final notification edits still queued are worth a few seconds.
      await services.outbox.drain(5_000);
      services.outbox.close();
      await services.realtime.close();
      await services.ci.close();
      await kv.close();
    } finally {
      clearTimeout(force);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('ci-slack failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
