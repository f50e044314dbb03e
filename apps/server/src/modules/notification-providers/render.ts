import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';

/** Raw HTML in a message body is shown as text, never passed through: bodies quote event data written by others. */
const markdown = new MarkdownIt({ html: false, linkify: true });

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function markdownToHtml(body: string): string {
  return markdown.render(body);
}

/**
 * Slack's mrkdwn, which Google Chat's text format shares: *bold*, _italic_, ~strike~, <url|text> links and ```
 * fences. Every text run is escaped, so a body quoting event data (raw HTML, a '<!channel>') can never become a Slack
 * control sequence.
 */
export function markdownToSlack(body: string): string {
  const blocks: string[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  let quoteDepth = 0;
  let pendingPrefix = '';
  let tableRow: string[] | null = null;
  const push = (text: string, tight: boolean): void => {
    const quoted = quoteDepth > 0 ? text.replace(/^/gm, '> '.repeat(quoteDepth)) : text;
    blocks.push(blocks.length === 0 ? quoted : `${tight ? '\n' : '\n\n'}${quoted}`);
  };
  let lastWasItem = false;
  let headingOpen = false;
  for (const token of markdown.parse(body, {})) {
    switch (token.type) {
      case 'bullet_list_open':
      case 'ordered_list_open':
        lists.push({ ordered: token.type === 'ordered_list_open', next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists.at(-1);
        const marker = list?.ordered === true ? `${list.next++}. ` : '• ';
        pendingPrefix = `${'    '.repeat(Math.max(0, lists.length - 1))}${marker}`;
        break;
      }
      case 'blockquote_open':
        quoteDepth += 1;
        break;
      case 'blockquote_close':
        quoteDepth -= 1;
        break;
      case 'heading_open':
        headingOpen = true;
        break;
      case 'heading_close':
        headingOpen = false;
        break;
      case 'tr_open':
        tableRow = [];
        break;
      case 'tr_close':
        push((tableRow ?? []).join(' | '), true);
        tableRow = null;
        lastWasItem = false;
        break;
      case 'inline': {
        const text = slackInline(token.children ?? []);
        if (tableRow !== null) {
          tableRow.push(text);
          break;
        }
        const line = headingOpen && text !== '' ? `*${text}*` : text;
        push(`${pendingPrefix}${line}`, lastWasItem && pendingPrefix !== '');
        lastWasItem = pendingPrefix !== '';
        pendingPrefix = '';
        break;
      }
      case 'fence':
      case 'code_block':
        push(`\`\`\`\n${escapeSlack(token.content.replace(/\n$/, ''))}\n\`\`\``, false);
        lastWasItem = false;
        break;
      case 'hr':
        push('───', false);
        lastWasItem = false;
        break;
      default:
        break;
    }
  }
  return blocks.join('').trim();
}

const SLACK_MARKS: Readonly<Record<string, string>> = { strong: '*', em: '_', s: '~' };

function slackInline(tokens: readonly Token[]): string {
  let text = '';
  const links: { href: string; start: number }[] = [];
  for (const token of tokens) {
    const [tag, edge] = token.type.split(/_(?=open$|close$)/);
    const mark = tag === undefined ? undefined : SLACK_MARKS[tag];
    if (mark !== undefined && (edge === 'open' || edge === 'close')) text += mark;
    else if (token.type === 'text') text += escapeSlack(token.content);
    else if (token.type === 'code_inline') text += `\`${escapeSlack(token.content)}\``;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
    else if (token.type === 'image') text += slackLink(String(token.attrGet('src') ?? ''), escapeSlack(token.content));
    else if (token.type === 'link_open') links.push({ href: String(token.attrGet('href') ?? ''), start: text.length });
    else if (token.type === 'link_close') {
      const link = links.pop();
      if (link !== undefined) text = text.slice(0, link.start) + slackLink(link.href, text.slice(link.start));
    }
  }
  return text;
}

/** A link whose shown text is its own target (an autolinked URL) is written once. */
function slackLink(href: string, label: string): string {
  if (href === '') return label;
  const target = href.replace(/[<>|]/g, encodeURIComponent);
  return label === '' || label === escapeSlack(href) ? `<${target}>` : `<${target}|${label}>`;
}

/** Plain text (a title) for Slack or Google Chat, where &, < and > are control characters. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function inlineText(tokens: readonly Token[]): string {
  let text = '';
  const links: string[] = [];
  let linkStart = 0;
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
    else if (token.type === 'image') text += token.content;
    else if (token.type === 'link_open') {
      links.push(String(token.attrGet('href') ?? ''));
      linkStart = text.length;
    } else if (token.type === 'link_close') {
      const href = links.pop() ?? '';
      // An autolinked URL already shows itself; a named link would lose its target in plain text.
      if (href !== '' && text.slice(linkStart) !== href && `mailto:${text.slice(linkStart)}` !== href) text += ` (${href})`;
    }
  }
  return text;
}

/** What a reader of a plain-text channel should see: the words and link targets, without Markdown punctuation. */
export function markdownToText(body: string): string {
  let text = '';
  const add = (block: string, inList: boolean): void => {
    // List items stay on consecutive lines; every other block is a paragraph of its own.
    text += text === '' ? block : `${inList ? '\n' : '\n\n'}${block}`;
  };
  const listPrefixes: string[] = [];
  let pendingPrefix = '';
  let lastWasItem = false;
  for (const token of markdown.parse(body, {})) {
    if (token.type === 'bullet_list_open') listPrefixes.push('- ');
    else if (token.type === 'ordered_list_open') listPrefixes.push('#');
    else if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') listPrefixes.pop();
    else if (token.type === 'list_item_open') {
      const prefix = listPrefixes.at(-1) ?? '- ';
      pendingPrefix = `${'  '.repeat(Math.max(0, listPrefixes.length - 1))}${prefix === '#' ? `${token.info}. ` : prefix}`;
    } else if (token.type === 'inline') {
      add(`${pendingPrefix}${inlineText(token.children ?? [])}`, lastWasItem && pendingPrefix !== '');
      lastWasItem = pendingPrefix !== '';
      pendingPrefix = '';
    } else if (token.type === 'fence' || token.type === 'code_block') {
      add(token.content.replace(/\n$/, ''), false);
      lastWasItem = false;
    } else if (token.type === 'hr') {
      add('---', false);
      lastWasItem = false;
    }
  }
  return text.trim();
}

/** Cuts text to a provider's length limit, marking the cut. */
export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
