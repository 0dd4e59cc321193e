import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type BuildRef,
  formatBuildRef,
  formatJobRef,
  formatRepoRef,
  formatRepoTarget,
  parseBuildOrJobRef,
  parseBuildRef,
  parseJobRef,
  parseRepoRef,
  parseRepoTarget,
  type RepoRef,
  readBuildRef,
  readJobRef,
  readRepoRef,
} from '../../src/slack/refs.js';
import { anyText } from './arbitraries.js';

const WEB = {
  com: 'https://app.travis-ci.com',
  org: 'https://app.travis-ci.org',
  enterprise: 'https://ci.corp.example/ci',
};
const octo: RepoRef = { kind: 'slug', owner: 'octo', name: 'app', slug: 'octo/app' };

describe('parseRepoRef', () => {
  it('reads owner/name and numeric ids', () => {
    assert.deepEqual(parseRepoRef('octo/app'), octo);
    assert.deepEqual(parseRepoRef('my-org/site.github.io'), {
      kind: 'slug',
      owner: 'my-org',
      name: 'site.github.io',
      slug: 'my-org/site.github.io',
    });
    assert.deepEqual(parseRepoRef('a1/_x-y.z_'), {
      kind: 'slug',
      owner: 'a1',
      name: '_x-y.z_',
      slug: 'a1/_x-y.z_',
    });
    assert.deepEqual(parseRepoRef('4242'), { kind: 'id', id: 4242 });
    assert.deepEqual(parseRepoRef(String(Number.MAX_SAFE_INTEGER)), {
      kind: 'id',
      id: Number.MAX_SAFE_INTEGER,
    });
  });

  it('rejects malformed repositories', () => {
    for (const bad of [
      '',
      'octo',
      'octo/',
      '/app',
      'a/b/c',
      'oc.to/app',
      'oc_to/app',
      '-octo/app',
      'octo/.',
      'octo/..',
      'octo/a b',
      'octo/app!',
      `${'o'.repeat(40)}/app`,
      `octo/${'n'.repeat(101)}`,
      '0',
      '-5',
      '1.5',
      '9007199254740993',
      '99999999999999999999',
    ]) {
      assert.equal(parseRepoRef(bad), undefined, bad);
    }
  });

  it('explains what is wrong', () => {
    const dotted = readRepoRef('oc.to/app');
    assert.ok(!dotted.ok && /not a valid owner name/.test(dotted.reason));
    const deep = readRepoRef('a/b/c');
    assert.ok(!deep.ok && /owner\/name/.test(deep.reason));
  });

  it('round-trips through formatRepoRef', () => {
    const owner = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/);
    const name = fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/).filter((n) => n !== '.' && n !== '..');
    fc.assert(
      fc.property(owner, name, (o, n) => {
        const ref = parseRepoRef(`${o}/${n}`);
        assert.ok(ref);
        assert.deepEqual(parseRepoRef(formatRepoRef(ref)), ref);
      }),
    );
    assert.equal(formatRepoRef({ kind: 'id', id: 7 }), '7');
  });
});

describe('parseRepoTarget', () => {
  it('reads owner/* as every repository of an owner', () => {
    assert.deepEqual(parseRepoTarget('octo/*'), { kind: 'owner', owner: 'octo' });
    assert.deepEqual(parseRepoTarget('octo/app'), { kind: 'repo', repo: octo });
    assert.equal(parseRepoTarget('oc.to/*'), undefined);
    assert.equal(parseRepoTarget('*/*'), undefined);
    assert.equal(formatRepoTarget({ kind: 'owner', owner: 'octo' }), 'octo/*');
  });
});

describe('parseBuildRef', () => {
  it('reads ids, build numbers and branches', () => {
    assert.deepEqual(parseBuildRef('987654', WEB), { kind: 'id', id: 987654 });
    assert.deepEqual(parseBuildRef('octo/app#123', WEB), { kind: 'number', repo: octo, number: '123' });
    assert.deepEqual(parseBuildRef('octo/app@main', WEB), { kind: 'branch', repo: octo, branch: 'main' });
    assert.deepEqual(parseBuildRef('octo/app@release/2.x', WEB), {
      kind: 'branch',
      repo: octo,
      branch: 'release/2.x',
    });
    assert.deepEqual(parseBuildRef('octo/app@feature#12', WEB), {
      kind: 'branch',
      repo: octo,
      branch: 'feature#12',
    });
  });

  it('uses the default repository for #123 and @branch', () => {
    assert.deepEqual(parseBuildRef('#123', WEB, octo), { kind: 'number', repo: octo, number: '123' });
    assert.deepEqual(parseBuildRef('@main', WEB, octo), { kind: 'branch', repo: octo, branch: 'main' });
    assert.equal(parseBuildRef('#123', WEB), undefined);
    const reason = readBuildRef('#123', WEB);
    assert.ok(!reason.ok && /needs a repository/.test(reason.reason) && /\/ci use/.test(reason.reason));
  });

  it('reads pasted build links of configured deployments', () => {
    const expected: BuildRef = { kind: 'url', deployment: 'com', repo: octo, id: 55 };
    for (const url of [
      'https://app.travis-ci.com/github/octo/app/builds/55',
      'https://app.travis-ci.com/github/octo/app/builds/55/',
      'https://app.travis-ci.com/github/octo/app/builds/55?utm_source=x&b=2',
      'https://app.travis-ci.com/github/octo/app/builds/55#L10',
      'https://APP.travis-ci.com/github/octo/app/builds/55',
      'http://app.travis-ci.com/github/octo/app/builds/55',
      'https://app.travis-ci.com/octo/app/builds/55',
      'https://travis-ci.com/octo/app/builds/55',
      'app.travis-ci.com/github/octo/app/builds/55',
      '<https://app.travis-ci.com/github/octo/app/builds/55>',
      '<https://app.travis-ci.com/github/octo/app/builds/55|build 55>',
      '<https://app.travis-ci.com/github/octo/app/builds/55?a=1&amp;b=2>',
    ]) {
      assert.deepEqual(parseBuildRef(url, WEB), expected, url);
    }
    assert.deepEqual(parseBuildRef('https://travis-ci.org/octo/app/builds/9', WEB), {
      kind: 'url',
      deployment: 'org',
      repo: octo,
      id: 9,
    });
    assert.deepEqual(parseBuildRef('https://ci.corp.example/ci/github/octo/app/builds/3', WEB), {
      kind: 'url',
      deployment: 'enterprise',
      repo: octo,
      id: 3,
    });
    // An owner that is literally called "github", in the old form.
    assert.deepEqual(parseBuildRef('https://app.travis-ci.com/github/app/builds/4', WEB), {
      kind: 'url',
      deployment: 'com',
      repo: { kind: 'slug', owner: 'github', name: 'app', slug: 'github/app' },
      id: 4,
    });
  });

  it('rejects links of other hosts with a clear message', () => {
    const result = readBuildRef('https://evil.example/github/octo/app/builds/55', WEB);
    assert.ok(!result.ok);
    assert.match(result.reason, /not a CI deployment this app knows/);
    assert.match(result.reason, /app\.travis-ci\.com/);
    const none = readBuildRef('https://app.travis-ci.com/github/octo/app/builds/55', {});
    assert.ok(!none.ok && /no CI deployment/.test(none.reason));
    assert.equal(parseBuildRef('https://ci.corp.example/other/github/octo/app/builds/3', WEB), undefined);
    assert.equal(parseBuildRef('javascript://app.travis-ci.com/github/octo/app/builds/1', WEB), undefined);
  });

  it('rejects malformed builds', () => {
    for (const bad of [
      '',
      '0',
      '-1',
      '12.5',
      '9007199254740993',
      '123456789012345678901234567890',
      'octo/app',
      'octo/app#',
      'octo/app#abc',
      'octo/app#0',
      'octo/app#1.2',
      '#abc',
      'octo/app@',
      '@',
      'octo/app@-bad',
      'octo/app@a..b',
      'octo/app@a b',
      'octo/app@branch.lock',
      'octo/app@a\u0007b',
      'octo/app@a\u007fb',
      'octo/app@a\u0085b',
      'oc.to/app#1',
      'a/b/c#1',
      'https://app.travis-ci.com/github/octo/app/jobs/55',
      'https://app.travis-ci.com/github/octo/app/builds/abc',
      'https://app.travis-ci.com/github/octo/app/builds/0',
      'https://app.travis-ci.com/github/octo/app/builds/99999999999999999999',
      'https://app.travis-ci.com/github/octo/app',
      'https://app.travis-ci.com/github/oc.to/app/builds/5',
    ]) {
      assert.equal(parseBuildRef(bad, WEB, bad.startsWith('@') ? octo : undefined), undefined, bad);
    }
  });

  it('points a repository typed in place of a build at the right forms', () => {
    const result = readBuildRef('octo/app', WEB);
    assert.ok(!result.ok && /octo\/app#123/.test(result.reason) && /octo\/app@main/.test(result.reason));
    const empty = readBuildRef('octo/app@', WEB);
    assert.ok(!empty.ok && /branch name is missing/.test(empty.reason));
  });

  it('round-trips the short forms', () => {
    for (const text of ['12', 'octo/app#3', 'octo/app@release/1.x', '77#5']) {
      const ref = parseBuildRef(text, WEB);
      assert.ok(ref, text);
      assert.equal(formatBuildRef(ref), text);
    }
  });
});

describe('parseJobRef', () => {
  it('reads ids, job numbers and job links', () => {
    assert.deepEqual(parseJobRef('5550', WEB), { kind: 'id', id: 5550 });
    assert.deepEqual(parseJobRef('octo/app#123.2', WEB), { kind: 'number', repo: octo, number: '123.2' });
    assert.deepEqual(parseJobRef('#123.2', WEB, octo), { kind: 'number', repo: octo, number: '123.2' });
    assert.deepEqual(parseJobRef('123.2', WEB, octo), { kind: 'number', repo: octo, number: '123.2' });
    assert.deepEqual(parseJobRef('https://app.travis-ci.com/github/octo/app/jobs/77/', WEB), {
      kind: 'url',
      deployment: 'com',
      repo: octo,
      id: 77,
    });
    assert.equal(formatJobRef({ kind: 'number', repo: octo, number: '1.2' }), 'octo/app#1.2');
  });

  it('rejects malformed jobs', () => {
    for (const bad of [
      '',
      '0',
      'octo/app#123',
      'octo/app#1.',
      'octo/app#1.2.3',
      'octo/app#.2',
      '#1.2',
      '1.2',
      'octo/app@main',
    ]) {
      assert.equal(parseJobRef(bad, WEB), undefined, bad);
    }
    assert.equal(parseJobRef('https://app.travis-ci.com/github/octo/app/builds/77', WEB), undefined);
    const build = readJobRef('octo/app#123', WEB);
    assert.ok(!build.ok && /#123\.1/.test(build.reason));
  });
});

describe('parseBuildOrJobRef', () => {
  it('tells builds from jobs by their form', () => {
    assert.deepEqual(parseBuildOrJobRef('12', WEB), { type: 'build', ref: { kind: 'id', id: 12 } });
    assert.deepEqual(parseBuildOrJobRef('octo/app#12', WEB), {
      type: 'build',
      ref: { kind: 'number', repo: octo, number: '12' },
    });
    assert.deepEqual(parseBuildOrJobRef('octo/app#12.3', WEB), {
      type: 'job',
      ref: { kind: 'number', repo: octo, number: '12.3' },
    });
    assert.deepEqual(parseBuildOrJobRef('12.3', WEB, octo), {
      type: 'job',
      ref: { kind: 'number', repo: octo, number: '12.3' },
    });
    assert.deepEqual(parseBuildOrJobRef('octo/app@rel/1.2', WEB), {
      type: 'build',
      ref: { kind: 'branch', repo: octo, branch: 'rel/1.2' },
    });
    assert.deepEqual(parseBuildOrJobRef('https://app.travis-ci.com/github/octo/app/jobs/8', WEB), {
      type: 'job',
      ref: { kind: 'url', deployment: 'com', repo: octo, id: 8 },
    });
    assert.deepEqual(parseBuildOrJobRef('https://app.travis-ci.com/github/octo/app/builds/8', WEB), {
      type: 'build',
      ref: { kind: 'url', deployment: 'com', repo: octo, id: 8 },
    });
    for (const bad of ['', 'octo/app', '#1', 'x', 'https://example.com/github/octo/app/jobs/8']) {
      assert.equal(parseBuildOrJobRef(bad, WEB), undefined, bad);
    }
  });

  it('never throws and always explains a rejection', () => {
    fc.assert(
      fc.property(anyText(300), (s) => {
        for (const read of [readBuildRef(s, WEB, octo), readJobRef(s, WEB, octo), readRepoRef(s)]) {
          if (!read.ok) {
            assert.ok(read.reason.length > 0);
            assert.ok(!/[<>]/.test(read.reason), read.reason);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
