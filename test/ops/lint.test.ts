import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { extractCodeBlock, keyPath, unescapeSlackText } from '../../src/ops/lint.js';

describe('extractCodeBlock', () => {
  it('takes the first code block of a Slack message, fences removed', () => {
    const text = 'Why does this fail?\n```language: ruby\nrvm:\n  - 3.2```\nand this one:\n```os: linux```';
    assert.equal(extractCodeBlock(text), 'language: ruby\nrvm:\n  - 3.2');
  });

  it('undoes the escaping and link markup Slack puts in message text', () => {
    const text =
      '```script: echo &lt;ok&gt; &amp;&amp; make\nnotifications:\n  email: <mailto:a@b.example|a@b.example>\n  webhooks: <https://hooks.example/x>```';
    assert.equal(
      extractCodeBlock(text),
      'script: echo <ok> && make\nnotifications:\n  email: a@b.example\n  webhooks: https://hooks.example/x',
    );
  });

  it('drops a first line that only names the language, and a newline after the fence', () => {
    assert.equal(extractCodeBlock('```yaml\nlanguage: go\n```'), 'language: go\n');
    assert.equal(extractCodeBlock('```\nlanguage: go```'), 'language: go');
    assert.equal(extractCodeBlock('```yaml: true```'), 'yaml: true');
  });

  it('finds nothing without a complete, non-empty code block', () => {
    assert.equal(extractCodeBlock('language: ruby'), undefined);
    assert.equal(extractCodeBlock('```language: ruby'), undefined);
    assert.equal(extractCodeBlock('``` \n ```'), undefined);
    assert.equal(extractCodeBlock('use `inline code` only'), undefined);
  });

  it('never throws, and what it finds came from between the first two fences', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const found = extractCodeBlock(text);
        if (found === undefined) return true;
        const open = text.indexOf('```');
        const close = text.indexOf('```', open + 3);
        return open !== -1 && close !== -1 && !found.includes('```');
      }),
    );
  });
});

describe('unescapeSlackText', () => {
  it('turns &amp;lt; into &lt; (one level of escaping only)', () => {
    assert.equal(unescapeSlackText('&amp;lt;'), '&lt;');
  });
});

describe('keyPath', () => {
  it('joins the key path with dots; the whole file has an empty path', () => {
    assert.equal(keyPath({ key: ['deploy', 'provider'] }), 'deploy.provider');
    assert.equal(keyPath({ key: [] }), '');
  });
});
