import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareText } from '../src/compare-text.js';

describe('compareText', () => {
  it('orders alphabetically, ignoring case first', () => {
    const sorted = ['rails/rails', 'Octo/app', 'octo/App', 'apache/kafka', 'octo/app', 'Zeta/z'].sort(
      compareText,
    );
    assert.deepEqual(sorted, ['apache/kafka', 'Octo/app', 'octo/App', 'octo/app', 'rails/rails', 'Zeta/z']);
  });

  it('orders ISO timestamps in time order', () => {
    const times = ['2026-11-21T10:00:00Z', '2025-01-01T00:00:00Z', '2026-11-21T09:59:59Z'];
    assert.deepEqual(times.sort(compareText), [
      '2025-01-01T00:00:00Z',
      '2026-11-21T09:59:59Z',
      '2026-11-21T10:00:00Z',
    ]);
  });

  it('is a total order: antisymmetric, zero only for equal text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(Math.sign(compareText(a, b)) + Math.sign(compareText(b, a)), 0);
        assert.equal(compareText(a, b) === 0, a === b);
      }),
    );
  });
});
