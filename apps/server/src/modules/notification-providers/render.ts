import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { slackifyMarkdown } from 'slackify-markdown';

/** Raw HTML in a message body is shown as text, never passed through: bodies quote event data written by others. */
const markdown = new MarkdownIt({ html: false, linkify: true });

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function markdownToHtml(body: string): string {
  return markdown.render(body);
}

/** Slack's mrkdwn, which Google Chat's text format shares (*bold*, _italic_, `code`, <url|text>). */
export function markdownToSlack(body: string): string {
  // Raw HTML and code come through with a bare '<', which Slack would read as the start of a control sequence; only
  // the <url|text> links the converter wrote may keep theirs.
  return slackifyMarkdown(body)
    .trimEnd()
    .replace(/<(?![a-z][a-z0-9+.-]*:[^<>\s|]*(?:\|[^<>]*)?>)/gi, '&lt;');
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
