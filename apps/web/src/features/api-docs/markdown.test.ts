import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '@/components/markdown/markdown';
import { projectDocHref } from './project-docs';

describe('parseMarkdown', () => {
  it('reads headings, paragraphs joined across lines, fenced code and tables', () => {
    const blocks = parseMarkdown(['# Run it', '', 'One command', 'starts it.', '', '```sh', 'npm start', '```', '', '| A | B |', '| --- | --- |', '| `x` | [y](z.md) |'].join('\n'));
    expect(blocks.map((block) => block.kind)).toEqual(['heading', 'paragraph', 'code', 'table']);
    expect(blocks[0]).toMatchObject({ kind: 'heading', level: 1, id: 'run-it' });
    expect(blocks[1]).toEqual({ kind: 'paragraph', content: [{ kind: 'text', text: 'One command starts it.' }] });
    expect(blocks[2]).toEqual({ kind: 'code', language: 'sh', text: 'npm start' });
    expect(blocks[3]).toMatchObject({
      kind: 'table',
      rows: [[[{ kind: 'code', text: 'x' }], [{ kind: 'link', href: 'z.md', children: [{ kind: 'text', text: 'y' }] }]]],
    });
  });

  it('keeps a list item going over lines at the left margin and nests an indented list', () => {
    const [list] = parseMarkdown(['- **Key** is', 'kept outside.', '  - nested', '- second'].join('\n'));
    expect(list).toMatchObject({
      kind: 'list',
      ordered: false,
      items: [
        {
          content: [{ kind: 'strong', children: [{ kind: 'text', text: 'Key' }] }, { kind: 'text', text: ' is kept outside.' }],
          children: { kind: 'list', items: [{ content: [{ kind: 'text', text: 'nested' }] }] },
        },
        { content: [{ kind: 'text', text: 'second' }], children: null },
      ],
    });
  });

  it('leaves markup in the text as text', () => {
    const [paragraph] = parseMarkdown('<script>alert(1)</script>');
    expect(paragraph).toEqual({ kind: 'paragraph', content: [{ kind: 'text', text: '<script>alert(1)</script>' }] });
  });
});

describe('projectDocHref', () => {
  it('keeps links between bundled docs inside the app, anchors included', () => {
    expect(projectDocHref('architecture', 'security.md')).toBe('/docs/security');
    expect(projectDocHref('architecture', 'adr/0003-run-the-server-through-tsx.md#why')).toBe('/docs/adr/0003-run-the-server-through-tsx#why');
    expect(projectDocHref('readme', 'docs/architecture.md')).toBe('/docs/architecture');
    expect(projectDocHref('adr/0003-run-the-server-through-tsx', '../security.md')).toBe('/docs/security');
  });

  it('leaves other links alone', () => {
    expect(projectDocHref('architecture', 'https://example.com/a.md')).toBeNull();
    expect(projectDocHref('architecture', 'missing.md')).toBeNull();
    expect(projectDocHref('architecture', '../apps/server/src/app.ts')).toBeNull();
  });
});
