import { ConfigError, loadConfig } from './config.js';

function main(): void {
  try {
    loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  console.error('The Slack app is not built yet.');
  process.exit(1);
}

main();
