import { CiClient } from './ci/client.js';
import type { Config, Deployment } from './config.js';
import type { Logger } from './log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { deploymentLabel } from './ops/describe-error.js';
import { ChannelDefaults } from './store/channel-defaults.js';
import type { Kv } from './store/kv.js';
import { LinkedAccounts } from './store/linked-accounts.js';
import { TokenCipher } from './store/token-cipher.js';

/**
 * Everything a use case or handler may need, built once in main.ts (or a test) and passed in.
 * Nothing here is a module-level singleton.
 */
export interface Services {
  config: Config;
  logger: Logger;
  kv: Kv;
  storeKind: 'redis' | 'memory';
  ci: CiClient;
  accounts: LinkedAccounts;
  channelDefaults: ChannelDefaults;
  metrics: Metrics;
  clock: () => Date;
  /** "travis-ci.com", "travis-ci.org" or the enterprise host. */
  label(deployment: Deployment): string;
}

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  kv: Kv;
  storeKind: 'redis' | 'memory';
  userAgent: string;
  clock?: () => Date;
  /** Tests shorten CI retries; production uses the client's defaults. */
  ciOverrides?: Partial<ConstructorParameters<typeof CiClient>[0]>;
}

export function createServices(deps: ServiceDeps): Services {
  const { config, logger, kv } = deps;
  const clock = deps.clock ?? (() => new Date());
  const metrics = createMetrics();
  const cipher =
    config.tokenEncryptionKeys.length > 0
      ? new TokenCipher(config.tokenEncryptionKeys)
      : TokenCipher.ephemeral();
  const ci = new CiClient({
    ...config.ci,
    userAgent: deps.userAgent,
    logger,
    onAttempt: (info) => metrics.observeCiAttempt(info),
    ...deps.ciOverrides,
  });
  return {
    config,
    logger,
    kv,
    storeKind: deps.storeKind,
    ci,
    accounts: new LinkedAccounts(kv, cipher, clock, logger),
    channelDefaults: new ChannelDefaults(kv),
    metrics,
    clock,
    label(deployment) {
      const settings = config.ci.deployments[deployment];
      return settings ? deploymentLabel(settings.webUrl) : deployment;
    },
  };
}
