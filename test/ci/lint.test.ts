import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lintConfig, lintConfigYaml } from '../../src/ci/lint.js';
import { only, type Setup, setUp } from './helpers.js';

const CONFIG = 'language: cobol\nscript: make\nfoo: bar\n';
const WARNINGS = [
  { key: ['foo'], message: 'unexpected key "foo", dropping' },
  { key: ['language'], message: 'illegal value "cobol", defaulting to "ruby"' },
];

describe('CI client: lint (4.19)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('POST /lint with the text as the content parameter', async () => {
    assert.deepEqual(await lintConfig(ci.as(null), CONFIG), WARNINGS);
    const request = only(ci.take());
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/lint');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request.body), { content: CONFIG });
  });

  it('PUT /lint with the raw YAML as a text/yaml body', async () => {
    assert.deepEqual(await lintConfigYaml(ci.as(null), CONFIG), WARNINGS);
    const request = only(ci.take());
    assert.equal(request.method, 'PUT');
    assert.equal(request.headers['content-type'], 'text/yaml');
    assert.equal(request.body, CONFIG);
  });

  it('a clean configuration has no warnings', async () => {
    assert.deepEqual(await lintConfigYaml(ci.as(null), 'language: ruby\n'), []);
    ci.take();
  });
});
