/**
 * User text placed inline in Markdown: every character Markdown or a GFM table could read as syntax is escaped, and
 * line breaks become spaces so one value never breaks a list item or a table row.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`)
    .trim();
}

/** Text inside an inline code span: backticks in it lengthen the fence instead of being escaped. */
export function inlineCode(text: string): string {
  const single = text.replace(/\r?\n|\r/g, ' ');
  const longest = Math.max(0, ...[...single.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = single.startsWith('`') || single.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${single}${pad}${fence}`;
}

/** '1d 2h 5m', '3h 0m', '45m', '20s'. */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m`;
  return `${seconds}s`;
}

/** 2024-05-01 14:03 UTC */
export function utcTime(value: Date): string {
  return `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
