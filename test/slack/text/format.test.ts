import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitList } from '../../../src/slack/text/fit-list.js';
import { formatDuration, formatNumber, plural, timeAgo } from '../../../src/slack/text/format.js';

describe('formatNumber and plural', () => {
  it('groups thousands', () => {
    assert.equal(formatNumber(0), '0');
    assert.equal(formatNumber(1234), '1,234');
    assert.equal(formatNumber(1234567), '1,234,567');
    assert.equal(formatNumber(-1500), '-1,500');
    assert.equal(formatNumber(1.5), '1.5');
    assert.equal(formatNumber(999), '999');
    assert.equal(formatNumber(1000), '1,000');
    assert.equal(formatNumber(1234.5), '1,234.5');
    assert.equal(formatNumber(1234567.126), '1,234,567.13');
    assert.equal(formatNumber(0.004), '0');
    assert.equal(formatNumber(-0.004), '0');
    assert.equal(formatNumber(-1234.25), '-1,234.25');
  });

  it('counts', () => {
    assert.equal(plural(1, 'build'), '1 build');
    assert.equal(plural(0, 'build'), '0 builds');
    assert.equal(plural(2500, 'build'), '2,500 builds');
    assert.equal(plural(2, 'branch', 'branches'), '2 branches');
  });
});

describe('formatDuration', () => {
  it('writes hours, minutes and seconds', () => {
    assert.equal(formatDuration(45), '45s');
    assert.equal(formatDuration(3723), '1h 2m 3s');
    assert.equal(formatDuration(120), '2m');
    assert.equal(formatDuration(3603), '1h 0m 3s');
    assert.equal(formatDuration(90_000), '1d 1h');
    assert.equal(formatDuration(0), '0s');
    assert.equal(formatDuration(59.6), '1m');
    assert.equal(formatDuration(-1), '–');
    assert.equal(formatDuration(Number.NaN), '–');
  });
});

describe('timeAgo', () => {
  const now = Date.parse('2024-05-10T12:00:00Z');
  it('says how long ago', () => {
    assert.equal(timeAgo('2024-05-10T11:59:58Z', now), 'just now');
    assert.equal(timeAgo('2024-05-10T11:59:15Z', now), '45 sec ago');
    assert.equal(timeAgo('2024-05-10T11:57:00Z', now), '3 min ago');
    assert.equal(timeAgo('2024-05-10T07:00:00Z', new Date(now)), '5 hours ago');
    assert.equal(timeAgo('2024-05-09T11:00:00Z', now), '1 day ago');
    assert.equal(timeAgo('2024-04-20T12:00:00Z', now), '20 days ago');
    assert.equal(timeAgo('2024-03-01T10:00:00Z', now), '1 Mar 2024');
  });

  it('copes with skew and nonsense', () => {
    assert.equal(timeAgo('2024-05-10T12:00:30Z', now), 'just now');
    assert.equal(timeAgo('2024-05-10T12:05:00Z', now), 'in 5 min');
    assert.equal(timeAgo('yesterday-ish', now), 'at an unknown time');
  });
});

describe('fitList', () => {
  const jobs = Array.from({ length: 300 }, (_, i) => ({ number: `12.${i + 1}`, state: 'passed' }));
  const render = (j: { number: string; state: string }) => `#${j.number} ${j.state}`;

  it('keeps everything that fits', () => {
    const out = fitList(jobs.slice(0, 3), render, { maxItems: 10, maxChars: 1000 });
    assert.deepEqual(out, { shown: ['#12.1 passed', '#12.2 passed', '#12.3 passed'], omitted: 0 });
  });

  it('stops at the item limit with a note', () => {
    const out = fitList(jobs, render, { maxItems: 40, maxChars: 100_000 });
    assert.equal(out.shown.length, 40);
    assert.equal(out.omitted, 260);
    assert.equal(out.note, 'showing 40 of 300');
  });

  it('stops at the character limit, separators counted', () => {
    const out = fitList(jobs, render, { maxItems: 300, maxChars: 100 });
    assert.ok(out.shown.join('\n').length <= 100);
    assert.equal(out.shown.length + out.omitted, 300);
    assert.equal(out.note, `showing ${out.shown.length} of 300`);
    const rendered: number[] = [];
    fitList(
      jobs,
      (j, i) => {
        rendered.push(i);
        return render(j);
      },
      { maxItems: 5, maxChars: 1000 },
    );
    assert.equal(rendered.length, 5);
  });

  it('shows at least the start of a first item that is too long', () => {
    const out = fitList(['x'.repeat(500), 'y'], (s) => s, { maxItems: 5, maxChars: 50 });
    assert.equal(out.shown.length, 1);
    assert.ok((out.shown[0] ?? '').length <= 50);
    assert.equal(out.note, 'showing 1 of 2');
    assert.deepEqual(
      fitList([], (s: string) => s, { maxItems: 5, maxChars: 50 }),
      { shown: [], omitted: 0 },
    );
  });
});
