import { readFileSync } from 'node:fs';

const logsDir = new URL('../../fixtures/logs/', import.meta.url);
const travisDir = new URL('../../../../shared/fixtures/travis/', import.meta.url);

/** The hand-written raw logs in test/fixtures/logs/, each with its expected cleaned text. */
export const LOG_FIXTURES = ['node-passing', 'python-failing', 'rust-progress'] as const;

export function rawFixture(name: string): string {
  return readFileSync(new URL(`${name}.rawlog`, logsDir), 'utf8');
}

export function rawFixtureBytes(name: string): Buffer {
  return readFileSync(new URL(`${name}.rawlog`, logsDir));
}

export function expectedFixture(name: string): string {
  return readFileSync(new URL(`${name}.expected.txt`, logsDir), 'utf8');
}

export function travisFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, travisDir), 'utf8'));
}
