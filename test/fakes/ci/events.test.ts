import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture } from './fixtures.js';
import { type FakeCi, type PusherMessage, startFakeCi } from './index.js';
import { field } from './test-helpers.js';

function collect(ci: FakeCi): PusherMessage[] {
  const messages: PusherMessage[] = [];
  ci.events.on('pusher', (message: PusherMessage) => messages.push(message));
  return messages;
}

describe('fake CI: realtime events', () => {
  it('announces a new public build on repo-<id> and on the user channels of everyone with access', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const messages = collect(ci);
    const build = ci.state.addBuild('rails/rails', { jobs: 1, message: 'Add feature' });
    const created = messages.filter((m) => m.event === 'build:created');
    assert.deepEqual(
      created.map((m) => m.channel),
      ['private-user-267', 'repo-891'],
    );
    const data = created[0]?.data as {
      build: { id: number };
      commit: { message: string };
      repository: { slug: string };
    };
    assert.equal(data.build.id, build.id);
    assert.equal(data.commit.message, 'Add feature');
    assert.equal(data.repository.slug, 'rails/rails');
    assert.deepEqual(
      messages.filter((m) => m.event === 'job:created').map((m) => m.channel),
      ['private-user-267', 'repo-891'],
    );
  });

  it('sends private repositories to user channels only, and jobs as flat payloads', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const messages = collect(ci);
    ci.state.updateJob(9101, { state: 'started' });
    assert.deepEqual(
      messages.map((m) => [m.channel, m.event]),
      [['private-user-267', 'job:started']],
    );
    messages.length = 0;
    ci.state.updateJob(9101, { state: 'passed' });
    const [finished] = messages;
    assert.equal(finished?.event, 'job:finished');
    const job = finished?.data as Record<string, unknown>;
    const shape = fixture('travislive_pusher_job_started_payload.json') as object;
    assert.deepEqual(Object.keys(job), Object.keys(shape));
    assert.equal(job.repository_private, true);
    assert.equal(job.state, 'passed');
  });

  it('names build events after the state change', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const build = ci.state.addBuild('rails/rails', { jobs: 0 });
    const messages = collect(ci);
    for (const state of ['started', 'passed', 'created', 'started', 'canceled'] as const) {
      ci.state.updateBuild(build.id, { state });
    }
    assert.deepEqual(
      messages.filter((m) => m.channel === 'repo-891').map((m) => m.event),
      ['build:started', 'build:finished', 'build:restarted', 'build:started', 'build:canceled'],
    );
    assert.ok(ci.state.getBuild(build.id)?.finishedAt, 'a canceled build has finished');
  });

  it('streams log parts as job:log on job-<id> or private-job-<id>', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const messages = collect(ci);
    ci.state.appendLogPart(4125096, 'more\n');
    ci.state.appendLogPart(9101, 'secret\n', { final: true });
    assert.deepEqual(messages, [
      {
        channel: 'job-4125096',
        event: 'job:log',
        data: { id: 4125096, _log: 'more\n', number: 1, final: false },
      },
      {
        channel: 'private-job-9101',
        event: 'job:log',
        data: { id: 9101, _log: 'secret\n', number: 1, final: true },
      },
    ]);
  });

  it('replaces payloads over 10,000 bytes by the travis-live stubs', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const messages = collect(ci);
    const build = ci.state.addBuild('rails/rails', { message: 'a'.repeat(10_240) });
    const buildStub = messages.find((m) => m.event === 'build:created')?.data;
    const jobStub = messages.find((m) => m.event === 'job:created')?.data;
    assert.deepEqual(buildStub, {
      ...(fixture('travislive_pusher_build_truncated_payload.json') as object),
      build: { id: build.id },
    });
    assert.deepEqual(jobStub, {
      ...(fixture('travislive_pusher_job_truncated_payload.json') as object),
      id: build.jobIds[0],
      build_id: build.id,
    });
    messages.length = 0;
    ci.state.addBuild('rails/rails', { message: 'a'.repeat(9_000) });
    const full = messages.find((m) => m.event === 'build:created')?.data;
    assert.equal(field(full, '_no_full_payload'), undefined);
    assert.equal(field(full, 'commit', 'message'), 'a'.repeat(9_000));
  });
});
