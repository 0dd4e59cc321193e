/** Reads the shared Travis fixtures (`../shared/fixtures/travis` beside the repository). */
import { readFileSync } from 'node:fs';

const FIXTURES = new URL('../../../../shared/fixtures/travis/', import.meta.url);

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}
