/**
 * A faithful local fake of the Travis CI API (V2.1, plus the V3 error format and repository
 * migration), over in-memory state that tests seed and change. See seed.ts for the seeded world.
 *
 *   const ci = await startFakeCi();
 *   t.after(() => ci.close());
 *   await request(`${ci.url}/repos/rails/rails`, { headers: { accept: '…2.1+json', 'user-agent': 'x/1' } });
 */
import { startArchiveServer } from './archive.js';
import { FaultRegistry } from './faults.js';
import { seedWorld } from './seed.js';
import { startApiServer } from './server.js';
import { FakeCiState } from './state.js';
import { type FakeCi, type FakeCiOptions, type RecordedRequest, resolveOptions } from './types.js';

export { MAX_PAYLOAD_LENGTH, type PusherMessage } from './realtime.js';
export type * from './records.js';
export { pusherSignature } from './routes/pusher.js';
export * from './state.js';
export type { FakeCi, FakeCiOptions, Fault, FaultMatch, PusherOptions, RecordedRequest } from './types.js';
export { DEFAULT_PUSHER } from './types.js';

export async function startFakeCi(options: FakeCiOptions = {}): Promise<FakeCi> {
  const resolved = resolveOptions(options);
  const state = new FakeCiState({
    deployment: resolved.deployment,
    syncDurationMs: resolved.syncDurationMs,
    migrationStepMs: resolved.migrationStepMs,
  });
  if (resolved.seed) seedWorld(state);
  const faults = new FaultRegistry();
  const requests: RecordedRequest[] = [];
  const archive = await startArchiveServer(state);
  const api = await startApiServer({ state, options: resolved, faults, archiveUrl: archive.url, requests });
  return {
    url: api.url,
    archive: { url: archive.url, requests: archive.requests },
    state,
    requests,
    pusher: resolved.pusher,
    fault: (match, fault) => faults.add(match, fault),
    clearFaults: () => faults.clear(),
    events: state.events,
    close: async () => {
      state.dispose();
      await Promise.all([api.close(), archive.close()]);
    },
  };
}
