/**
 * A small Markdown reader for the project's own docs: headings, paragraphs, fenced code, lists (one level of
 * nesting), tables, quotes and rules; inline code, links, bold and italics. It builds a tree rendered as React
 * elements, never HTML strings, so nothing in a doc can inject markup.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export interface ListItem {
  content: Inline[];
  children: Block | null;
}

export type Block =
  | { kind: 'heading'; level: number; id: string; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'code'; language: string; text: string }
  | { kind: 'list'; ordered: boolean; items: ListItem[] }
  | { kind: 'table'; header: Inline[][]; rows: Inline[][][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'rule' };

const INLINE_PATTERN = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>|\*\*(.+?)\*\*|(?<![\w*])\*([^*\s][^*]*?)\*(?!\w)|(?<!\w)_([^_\s][^_]*?)_(?!\w)/g;

export function parseInline(source: string): Inline[] {
  const result: Inline[] = [];
  let last = 0;
  for (const match of source.matchAll(INLINE_PATTERN)) {
    const index = match.index;
    if (index > last) result.push({ kind: 'text', text: source.slice(last, index) });
    const [, code, linkText, href, autolink, strong, star, underscore] = match;
    if (code !== undefined) result.push({ kind: 'code', text: code });
    else if (linkText !== undefined && href !== undefined) result.push({ kind: 'link', href, children: parseInline(linkText) });
    else if (autolink !== undefined) result.push({ kind: 'link', href: autolink, children: [{ kind: 'text', text: autolink }] });
    else if (strong !== undefined) result.push({ kind: 'strong', children: parseInline(strong) });
    else result.push({ kind: 'em', children: parseInline(star ?? underscore ?? '') });
    last = index + match[0].length;
  }
  if (last < source.length) result.push({ kind: 'text', text: source.slice(last) });
  return result;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

function plainText(inlines: readonly Inline[]): string {
  return inlines.map((inline) => (inline.kind === 'text' || inline.kind === 'code' ? inline.text : plainText(inline.children))).join('');
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

function tableCells(line: string): Inline[][] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) => parseInline(cell.trim().replace(/\\\|/g, '|')));
}

function startsBlock(line: string, next: string | undefined): boolean {
  return /^(#{1,6})\s/.test(line) || line.startsWith('```') || LIST_ITEM.test(line) || line.startsWith('>') || /^(-{3,}|\*{3,})\s*$/.test(line) || (line.includes('|') && next !== undefined && TABLE_DIVIDER.test(next));
}

function parseList(lines: readonly string[], start: number): { block: Block; next: number } {
  const first = LIST_ITEM.exec(lines[start] ?? '');
  const baseIndent = first?.[1]?.length ?? 0;
  const ordered = /\d/.test(first?.[2] ?? '');
  const items: { text: string; nested: string[] }[] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      const following = lines[index + 1] ?? '';
      const continues = LIST_ITEM.exec(following);
      if (continues !== null && (continues[1]?.length ?? 0) >= baseIndent) {
        index += 1;
        continue;
      }
      break;
    }
    const item = LIST_ITEM.exec(line);
    const indent = item?.[1]?.length ?? 0;
    if (item !== null && indent <= baseIndent) {
      items.push({ text: item[3] ?? '', nested: [] });
    } else if (item !== null || /^\s+\S/.test(line)) {
      const current = items[items.length - 1];
      if (current === undefined) break;
      if (item !== null || current.nested.length > 0) current.nested.push(line.slice(Math.min(baseIndent + 2, line.length - line.trimStart().length)));
      else current.text += ` ${line.trim()}`;
    } else if (!startsBlock(line, lines[index + 1])) {
      // A lazy continuation: the item's text goes on at the left margin.
      const current = items[items.length - 1];
      if (current === undefined) break;
      current.text += ` ${line.trim()}`;
    } else {
      break;
    }
    index += 1;
  }
  return {
    block: {
      kind: 'list',
      ordered,
      items: items.map((item) => {
        const nested = item.nested.length > 0 ? parseMarkdown(item.nested.join('\n'))[0] : undefined;
        return { content: parseInline(item.text), children: nested ?? null };
      }),
    },
    next: index,
  };
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    if (line.startsWith('```')) {
      const language = line.slice(3).trim();
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').startsWith('```')) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      blocks.push({ kind: 'code', language, text: body.join('\n') });
      index += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const content = parseInline(heading[2] ?? '');
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, id: slugify(plainText(content)), content });
      index += 1;
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      blocks.push({ kind: 'rule' });
      index += 1;
      continue;
    }
    if (line.includes('|') && TABLE_DIVIDER.test(lines[index + 1] ?? '')) {
      const header = tableCells(line);
      const rows: Inline[][][] = [];
      index += 2;
      while (index < lines.length && (lines[index] ?? '').includes('|') && (lines[index] ?? '').trim() !== '') {
        rows.push(tableCells(lines[index] ?? ''));
        index += 1;
      }
      blocks.push({ kind: 'table', header, rows });
      continue;
    }
    if (line.startsWith('>')) {
      const quoted: string[] = [];
      while (index < lines.length && (lines[index] ?? '').startsWith('>')) {
        quoted.push((lines[index] ?? '').replace(/^>\s?/, ''));
        index += 1;
      }
      blocks.push({ kind: 'quote', blocks: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const { block, next } = parseList(lines, index);
      blocks.push(block);
      index = next;
      continue;
    }
    const paragraph: string[] = [line.trim()];
    index += 1;
    while (index < lines.length && (lines[index] ?? '').trim() !== '' && !startsBlock(lines[index] ?? '', lines[index + 1])) {
      paragraph.push((lines[index] ?? '').trim());
      index += 1;
    }
    blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
  }
  return blocks;
}
