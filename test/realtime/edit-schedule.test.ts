import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EditSchedule } from '../../src/realtime/edit-schedule.js';

describe('EditSchedule', () => {
  it('keeps to its grid, an interval after the previous edit, even one off the grid', () => {
    const schedule = new EditSchedule(2_000, 10_000, () => 0.25); // grid: 10,500 + k × 2,000
    assert.equal(schedule.nextAt(10_100), 10_500, 'the next grid point');
    schedule.sent(10_100); // an edit off the grid (the first one, at once)
    assert.equal(schedule.nextAt(10_200), 12_500, 'the first grid point at least an interval later');
    schedule.sent(12_500);
    assert.equal(schedule.nextAt(12_600), 14_500);
    assert.equal(schedule.nextAt(30_001), 30_500, 'after a quiet spell, the next grid point');
  });

  it('does not skip a grid point when a timer fires late', () => {
    const schedule = new EditSchedule(2_000, 0, () => 0.5);
    schedule.sent(1_000); // its timer fired at 1,013; the slot was 1,000
    assert.equal(schedule.nextAt(1_013), 3_000);
  });

  it('never allows two edits less than an interval apart', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 30 }),
        (interval, phase, pauses) => {
          const schedule = new EditSchedule(interval, 0, () => phase);
          let now = 0;
          let previous = Number.NEGATIVE_INFINITY;
          for (const pause of pauses) {
            now += pause;
            const at = schedule.nextAt(now);
            assert.ok(at >= now - 1e-6, 'never in the past');
            assert.ok(at - previous >= interval - 1e-6, `${at} after ${previous}`);
            assert.ok(
              previous === Number.NEGATIVE_INFINITY || at - Math.max(now, previous + interval) < interval,
            );
            schedule.sent(at);
            previous = at;
            now = at;
          }
        },
      ),
    );
  });

  it('spreads tails that change together over the interval', () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const due = Array.from({ length: 1_000 }, () => {
      const schedule = new EditSchedule(2_000, 0, random);
      return schedule.nextAt(100) % 2_000; // all change at once, at 100
    });
    const buckets = new Array(10).fill(0);
    for (const at of due) buckets[Math.floor(at / 200)] += 1;
    assert.ok(Math.max(...buckets) < 150, `edits per fifth of a second: ${buckets.join(', ')}`);
  });
});
