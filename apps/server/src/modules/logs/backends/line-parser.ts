/** How a file's lines are read: `auto` tries json, then logfmt, then plain text. */
export type LineFormat = 'auto' | 'plain' | 'json' | 'logfmt';

export interface ParseOptions {
  format: LineFormat;
  timestampField?: string | undefined;
  messageField?: string | undefined;
}

export interface ParsedLine {
  /** Milliseconds since the epoch, or null when the line carries no time this parser knows. */
  time: number | null;
  message: string;
  level: string | null;
  fields: Record<string, string>;
}

const TIME_FIELDS = ['time', 'ts', 'timestamp', '@timestamp', 't'];
const MESSAGE_FIELDS = ['msg', 'message', 'log'];
const LEVEL_FIELDS = ['level', 'lvl', 'severity', 'loglevel'];
/** A line holds at most this many fields as labels; the rest stay in the message only. */
const MAX_FIELDS = 32;
const MAX_FIELD_CHARS = 512;

/** RFC 3339 / ISO 8601 with T or a space, optional fraction and zone; `YYYY-MM-DD HH:MM:SS` is read as UTC. */
const LEADING_TIME = /^\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)\]?\s*/;
const LEADING_LEVEL = /^\[?(trace|debug|info|notice|warn|warning|error|err|fatal|critical|crit|panic)\]?:?(?:\s+|$)/i;
const LOGFMT_PAIR = /([^\s=]+)=("(?:[^"\\]|\\.)*"|\S*)/g;

/** Parses a timestamp text (ISO, RFC 3339, space-separated, epoch seconds or milliseconds); null when it is none. */
export function parseTime(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Epoch seconds (10 digits today) or milliseconds (13); nanoseconds (19) as Loki and Go write them.
    if (value > 1e17) return Math.floor(value / 1e6);
    return value > 1e11 ? value : value * 1000;
  }
  if (typeof value !== 'string' || value === '') return null;
  if (/^\d{10,19}(?:\.\d+)?$/.test(value)) return parseTime(Number(value));
  let text = value.trim().replace(',', '.');
  if (/^\d{4}-\d{2}-\d{2} \d/.test(text)) text = text.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/.test(text)) text += 'Z';
  // Date keeps milliseconds; a longer fraction (Go's nanoseconds) is cut rather than refused.
  text = text.replace(/(\.\d{3})\d+/, '$1');
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : time;
}

function scalarText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length > MAX_FIELD_CHARS ? `${value.slice(0, MAX_FIELD_CHARS)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value);
  return json.length > MAX_FIELD_CHARS ? `${json.slice(0, MAX_FIELD_CHARS)}…` : json;
}

function pick(record: Record<string, unknown>, preferred: string | undefined, names: readonly string[]): string | null {
  for (const name of preferred === undefined ? names : [preferred]) {
    if (Object.hasOwn(record, name)) return name;
  }
  return null;
}

function fromRecord(record: Record<string, unknown>, options: ParseOptions, raw: string): ParsedLine {
  const timeKey = pick(record, options.timestampField, TIME_FIELDS);
  const messageKey = pick(record, options.messageField, MESSAGE_FIELDS);
  const levelKey = pick(record, undefined, LEVEL_FIELDS);
  const fields: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of Object.entries(record)) {
    if (key === timeKey || key === messageKey || key === levelKey || count >= MAX_FIELDS) continue;
    const text = scalarText(value);
    if (text === null) continue;
    fields[key] = text;
    count += 1;
  }
  const level = levelKey === null ? null : scalarText(record[levelKey]);
  return {
    time: timeKey === null ? null : parseTime(record[timeKey]),
    message: messageKey === null ? raw : (scalarText(record[messageKey]) ?? ''),
    level: level === null ? null : level.toLowerCase(),
    fields,
  };
}

function parseJson(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function parseLogfmt(line: string): Record<string, unknown> | null {
  const record: Record<string, unknown> = {};
  let pairs = 0;
  for (const match of line.matchAll(LOGFMT_PAIR)) {
    const key = match[1] ?? '';
    const raw = match[2] ?? '';
    record[key] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    pairs += 1;
  }
  // One stray `a=b` in a sentence is not logfmt: two pairs and a line that starts with one are.
  return pairs >= 2 && /^[^\s=]+=/.test(line) ? record : null;
}

function parsePlain(line: string): ParsedLine {
  let rest = line;
  let time: number | null = null;
  const stamp = LEADING_TIME.exec(rest);
  if (stamp !== null) {
    time = parseTime(stamp[1]);
    rest = rest.slice(stamp[0].length);
  }
  let level: string | null = null;
  const found = LEADING_LEVEL.exec(rest);
  if (found !== null) {
    level = (found[1] ?? '').toLowerCase();
    rest = rest.slice(found[0].length);
  }
  return { time, message: rest, level, fields: {} };
}

/** One log line as a time, a message, a level and fields, in the file's format. */
export function parseLine(line: string, options: ParseOptions): ParsedLine {
  if (options.format === 'json' || options.format === 'auto') {
    const record = parseJson(line);
    if (record !== null) return fromRecord(record, options, line);
  }
  if (options.format === 'logfmt' || options.format === 'auto') {
    // A logfmt line may start with its own time before the pairs.
    const stamp = LEADING_TIME.exec(line);
    const record = parseLogfmt(stamp === null ? line : line.slice(stamp[0].length));
    if (record !== null) {
      const parsed = fromRecord(record, options, line);
      return parsed.time === null && stamp !== null ? { ...parsed, time: parseTime(stamp[1]) } : parsed;
    }
  }
  return parsePlain(line);
}
