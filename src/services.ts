import { CiClient } from './ci/client.js';
import type { Config, Deployment } from './config.js';
import type { Logger } from './log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { MigrationRunner, type MigrationTiming } from './migration/runner.js';
import { deploymentLabel } from './ops/describe-error.js';
import { RealtimeHub } from './realtime/hub.js';
import { LogFollower, type LogFollowerOptions } from './realtime/log-follower.js';
import { createSlackJsonCaller, SlackOutbox } from './slack/outbox/index.js';
import { WorkLimiter } from './slack/work-limiter.js';
import { BuildMessages } from './store/build-messages.js';
import { ChannelDefaults } from './store/channel-defaults.js';
import type { Kv } from './store/kv.js';
import { LinkedAccounts } from './store/linked-accounts.js';
import { NotifyPrefs } from './store/notify-prefs.js';
import { Subscriptions } from './store/subscriptions.js';
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
  subscriptions: Subscriptions;
  notifyPrefs: NotifyPrefs;
  buildMessages: BuildMessages;
  /** Everything the app posts on its own (notifications, live logs) goes through here. */
  outbox: SlackOutbox;
  /** One realtime connection per CI deployment. */
  realtime: RealtimeHub;
  /** Bounds the work running after acknowledgements, so acks never wait behind a backlog. */
  work: WorkLimiter;
  /** Migration batches driven in the background (`/ci migrate`); `start`ed by main.ts. */
  migrations: MigrationRunner;
  /** Live log tails in Slack threads (`/ci logs --follow`); `start`ed by the background work. */
  follower: LogFollower;
  metrics: Metrics;
  clock: () => Date;
  /** "travis-ci.com", "travis-ci.org" or the enterprise host. */
  label(deployment: Deployment): string;
}

/**
 * Commands and clicks worked on at once after their acks, and how many may wait. A command's work is
 * mostly waiting for the CI service; 64 keep one process busy without starving its acks.
 */
const MAX_RUNNING_REQUESTS = 64;
const MAX_QUEUED_REQUESTS = 2_000;

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  kv: Kv;
  storeKind: 'redis' | 'memory';
  userAgent: string;
  clock?: () => Date;
  /** Tests shorten CI retries; production uses the client's defaults. */
  ciOverrides?: Partial<ConstructorParameters<typeof CiClient>[0]>;
  /** Tests shorten realtime reconnect delays. */
  realtimeTiming?: ConstructorParameters<typeof RealtimeHub>[0]['timing'];
  /** Tests shorten the migration runner's checks and sweeps. */
  migrationTiming?: Partial<MigrationTiming>;
  /** Tests shorten the log follower's timers. */
  follower?: LogFollowerOptions;
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
  // The outbox decides about retries and rate limits itself, so its client has none of its own.
  const outboxClient = createSlackJsonCaller({
    token: config.slack.botToken,
    apiUrl: config.slack.apiUrl,
    userAgent: deps.userAgent,
  });
  const outbox = new SlackOutbox({
    clientFor: () => outboxClient,
    logger: logger.child({ component: 'outbox' }),
    budgets: config.slack.budgets,
  });
  // Parts that need the finished whole (the migration runner) read it through `full` once they run.
  let full: Services;
  const services: Omit<Services, 'follower'> = {
    config,
    logger,
    kv,
    storeKind: deps.storeKind,
    ci,
    accounts: new LinkedAccounts(kv, cipher, clock, logger),
    channelDefaults: new ChannelDefaults(kv),
    subscriptions: new Subscriptions(kv, clock),
    notifyPrefs: new NotifyPrefs(kv, clock),
    buildMessages: new BuildMessages(kv, clock),
    outbox,
    work: new WorkLimiter(MAX_RUNNING_REQUESTS, MAX_QUEUED_REQUESTS),
    realtime: new RealtimeHub({
      ci,
      logger,
      ...(deps.realtimeTiming ? { timing: deps.realtimeTiming } : {}),
    }),
    migrations: new MigrationRunner(() => full, deps.migrationTiming),
    metrics,
    clock,
    label(deployment) {
      const settings = config.ci.deployments[deployment];
      return settings ? deploymentLabel(settings.webUrl) : deployment;
    },
  };
  full = { ...services, follower: new LogFollower(services, deps.follower) };
  return full;
}
