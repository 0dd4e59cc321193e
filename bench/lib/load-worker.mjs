/**
 * Open-loop load: sends one signed slash command every 1000/rate ms for `seconds`, whatever the
 * answers do, and reports each request's time to acknowledgement. Runs in a worker thread so its
 * clock is not disturbed by the fakes in the main thread.
 */
import { createHmac } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

// Plain JavaScript: Node 20 worker threads do not inherit tsx's loader.
const { url, secret, rate, seconds, bodies } = workerData;
const target = new URL(url);
const pool = new Pool(target.origin, { connections: 256, pipelining: 1 });

function sign(body) {
  const ts = Math.floor(Date.now() / 1000);
  const sig = createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex');
  return { 'x-slack-request-timestamp': String(ts), 'x-slack-signature': `v0=${sig}` };
}

const total = rate * seconds;
const latencies = [];
let failures = 0;
const start = performance.now();
const inFlight = [];
for (let i = 0; i < total; i++) {
  const due = start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const body = bodies[i % bodies.length] ?? '';
  const sent = performance.now();
  inFlight.push(
    pool
      .request({
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...sign(body) },
        body,
      })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode !== 200) failures++;
        latencies.push(performance.now() - sent);
      })
      .catch(() => {
        failures++;
      }),
  );
}
await Promise.all(inFlight);
await pool.close();
parentPort?.postMessage({ latencies, failures, wallMs: performance.now() - start });
