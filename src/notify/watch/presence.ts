import type { Kv } from '../../store/kv.js';

const PROCESSES_KEY = 'watch-procs';
const heartbeatKey = (processId: string) => `watch-proc:${processId}`;

/**
 * Watcher processes announce themselves with a heartbeat key that expires unless renewed, and list
 * their ids in one set, so each can count the live ones and take about its share of the work. An id
 * in the set without a heartbeat belongs to a dead process and is removed by whoever sees it.
 */
export class Presence {
  constructor(
    private readonly kv: Kv,
    readonly processId: string,
    private readonly ttlMs: number,
  ) {}

  /** Renews this process's heartbeat; returns the ids of the live processes (this one included), sorted. */
  async beat(): Promise<string[]> {
    await this.kv.set(heartbeatKey(this.processId), String(Date.now()), { ttlMs: this.ttlMs });
    await this.kv.sadd(PROCESSES_KEY, this.processId);
    const members = await this.kv.smembers(PROCESSES_KEY);
    const beats = await this.kv.mget(members.map(heartbeatKey));
    const live = new Set([this.processId]);
    for (const [index, member] of members.entries()) {
      if (beats[index] !== null) live.add(member);
      else if (member !== this.processId) await this.kv.srem(PROCESSES_KEY, member);
    }
    return [...live].sort();
  }

  /** Says goodbye, so the others count one process fewer at their next round. */
  async leave(): Promise<void> {
    await this.kv.del(heartbeatKey(this.processId));
    await this.kv.srem(PROCESSES_KEY, this.processId);
  }
}
