import { describe, expect, it } from 'vitest';
import { markdownToSlack } from './render';

describe('markdownToSlack', () => {
  it('writes bold, italic, strike-through and inline code in Slack mrkdwn', () => {
    expect(markdownToSlack('**api** is _slow_, ~~not~~ down: `503`')).toBe('*api* is _slow_, ~not~ down: `503`');
  });

  it('writes a named link as <url|text> and a bare URL once', () => {
    expect(markdownToSlack('see [the runbook](https://runbooks.example.com/api) or https://status.example.com')).toBe(
      'see <https://runbooks.example.com/api|the runbook> or <https://status.example.com>',
    );
  });

  it('escapes raw HTML and Slack control sequences written in the body', () => {
    expect(markdownToSlack('<script>alert(1)</script> & <!channel>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt;');
  });

  it('turns a heading into a bold line and keeps paragraphs apart', () => {
    expect(markdownToSlack('# Check failed\n\nfirst\n\nsecond')).toBe('*Check failed*\n\nfirst\n\nsecond');
  });

  it('writes bullet and numbered lists on consecutive lines, nested lists indented', () => {
    expect(markdownToSlack('- one\n- two\n  1. a\n  2. b')).toBe('• one\n• two\n    1. a\n    2. b');
  });

  it('keeps a fenced block verbatim between triple back-ticks, escaped', () => {
    expect(markdownToSlack('```\nkubectl get pods > out\n```')).toBe('```\nkubectl get pods &gt; out\n```');
  });

  it('prefixes quoted lines with >', () => {
    expect(markdownToSlack('> quoted\n> still')).toBe('> quoted\n> still');
  });

  it('writes a table one row per line, cells apart', () => {
    expect(markdownToSlack('| check | status |\n| --- | --- |\n| api | down |')).toBe('check | status\napi | down');
  });
});
