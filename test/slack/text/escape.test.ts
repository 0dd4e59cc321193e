import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapeMrkdwn, inlineCode, link, safeHttpUrl, singleLine } from '../../../src/slack/text/escape.js';
import { anyText } from '../arbitraries.js';

describe('escapeMrkdwn', () => {
  it('escapes the three characters Slack reads as markup', () => {
    assert.equal(escapeMrkdwn('a & b < c > d'), 'a &amp; b &lt; c &gt; d');
    assert.equal(
      escapeMrkdwn('fix <!channel> and <@U123> <https://x|y>'),
      'fix &lt;!channel&gt; and &lt;@U123&gt; &lt;https://x|y&gt;',
    );
    assert.equal(escapeMrkdwn('already &amp; escaped'), 'already &amp;amp; escaped');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Fix *bold* _it_ ~x~ `code` in café 🚀, v1.2 (#34) — done: 100%';
    assert.equal(escapeMrkdwn(text), text);
  });

  it('makes broadcast words inert without changing how they look', () => {
    const out = escapeMrkdwn('ping @channel and @here, @everyone! but not email@channels.io');
    assert.ok(!/@(channel|here|everyone)\b/i.test(out));
    assert.equal(out.replace(/\u2060/g, ''), 'ping @channel and @here, @everyone! but not email@channels.io');
  });

  it('never lets < or > through', () => {
    fc.assert(
      fc.property(anyText(), (s) => {
        const out = escapeMrkdwn(s);
        assert.ok(!out.includes('<') && !out.includes('>'));
        // Every & starts one of our entities.
        assert.ok(!/&(?!amp;|lt;|gt;)/.test(out));
      }),
    );
  });
});

describe('inlineCode and singleLine', () => {
  it('keeps outside text inside one code span', () => {
    assert.equal(inlineCode('feature/`rm -rf`'), '`feature/ˋrm -rfˋ`');
    assert.equal(inlineCode('a\n<b>'), '`a &lt;b&gt;`');
    assert.equal(inlineCode(''), '` `');
    assert.equal(singleLine('  a \n\t b  '), 'a b');
  });

  it('always gives exactly two backticks', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const out = inlineCode(s);
        assert.equal(out.split('`').length - 1, 2);
        assert.ok(!/[<>\n]/.test(out));
      }),
    );
  });
});

describe('link', () => {
  it('builds an mrkdwn link with an escaped label', () => {
    assert.equal(
      link('https://app.travis-ci.com/github/o/r/builds/1', '#1 <passed>'),
      '<https://app.travis-ci.com/github/o/r/builds/1|#1 &lt;passed&gt;>',
    );
    assert.equal(link('https://x.example/a'), '<https://x.example/a|https://x.example/a>');
    assert.equal(link('https://x.example/a', '  '), '<https://x.example/a|https://x.example/a>');
  });

  it('keeps the URL from ending the link early', () => {
    const out = link('https://x.example/a|b>c<d?q=1&r=2', 'label');
    assert.equal(out, '<https://x.example/a%7Cb%3Ec%3Cd?q=1&amp;r=2|label>');
    assert.equal(link('https://x.example/a b', 'l'), '<https://x.example/a%20b|l>');
  });

  it('refuses what is not http(s)', () => {
    assert.equal(link('javascript:alert(1)', 'click <me>'), 'click &lt;me&gt;');
    assert.equal(link('mailto:a@b.c', 'mail'), 'mail');
    assert.equal(link('/relative', 'rel'), 'rel');
    assert.equal(safeHttpUrl('ftp://x'), undefined);
    assert.equal(safeHttpUrl(' https://x.example '), 'https://x.example/');
  });

  it('has exactly one < and one > for any input', () => {
    const url = fc
      .tuple(
        fc.constantFrom('http://', 'https://'),
        fc.constantFrom('x.example', '127.0.0.1:8080'),
        anyText(30),
      )
      .map(([scheme, host, rest]) => `${scheme}${host}/p|<>${rest}`);
    fc.assert(
      fc.property(url, anyText(), (href, label) => {
        const out = link(href, label);
        assert.ok(out.includes('/p%7C%3C%3E'), out);
        assert.equal(out.split('<').length - 1, 1);
        assert.equal(out.split('>').length - 1, 1);
        assert.ok(out.startsWith('<') && out.endsWith('>'));
        assert.ok(!/[\n|]/.test(out.slice(1, out.indexOf('|'))));
      }),
    );
  });
});
