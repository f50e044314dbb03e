import { stringify as toYaml } from 'yaml';
import { JqPathError, runJqPath } from './jq-path';
import { GoTemplateError, goPrint, goTruthy, isMethodValue, NO_VALUE, type GoFunction, type MethodValue } from './go-template';

/**
 * The functions templates call: Go's built-ins and the gomplate ones Mission Control's playbooks and checks use, under
 * gomplate's names and argument order (the value a pipeline passes in comes last: `{{ .x | strings.TrimPrefix "v" }}`).
 * Each reads its arguments only.
 */

/** A value as text for a function argument: nothing is empty text, not `<no value>`. */
export function goText(value: unknown): string {
  if (value === NO_VALUE || value === null || value === undefined) return '';
  return typeof value === 'string' ? value : goPrint(value);
}

function numberOf(value: unknown): number {
  const parsed = typeof value === 'number' ? value : Number(goText(value).trim());
  if (!Number.isFinite(parsed)) throw new GoTemplateError(`${goPrint(value)} is not a number`);
  return parsed;
}

function plain(value: unknown): unknown {
  if (value === NO_VALUE) return null;
  if (isMethodValue(value)) return value.print();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new GoTemplateError(`incompatible types for comparison: ${goPrint(a)} and ${goPrint(b)}`);
}

function equal(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
  return a === b;
}

/** The quoting a POSIX shell reads back as exactly the text: single quotes, each ' written '"'"'. */
export function shellQuote(value: unknown): string {
  return `'${goText(value).replaceAll("'", `'"'"'`)}'`;
}

function goQuote(value: unknown): string {
  return JSON.stringify(goText(value));
}

const GO_LAYOUT_TOKENS: ReadonlyArray<[string, (date: Date) => string]> = [
  ['2006', (d) => String(d.getUTCFullYear())],
  ['January', (d) => d.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })],
  ['Jan', (d) => d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })],
  ['Monday', (d) => d.toLocaleString('en-US', { weekday: 'long', timeZone: 'UTC' })],
  ['Mon', (d) => d.toLocaleString('en-US', { weekday: 'short', timeZone: 'UTC' })],
  ['MST', () => 'UTC'],
  ['Z07:00', () => 'Z'],
  ['-07:00', () => '+00:00'],
  ['.000', (d) => `.${String(d.getUTCMilliseconds()).padStart(3, '0')}`],
  ['01', (d) => String(d.getUTCMonth() + 1).padStart(2, '0')],
  ['02', (d) => String(d.getUTCDate()).padStart(2, '0')],
  ['15', (d) => String(d.getUTCHours()).padStart(2, '0')],
  ['03', (d) => String(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12).padStart(2, '0')],
  ['04', (d) => String(d.getUTCMinutes()).padStart(2, '0')],
  ['05', (d) => String(d.getUTCSeconds()).padStart(2, '0')],
  ['06', (d) => String(d.getUTCFullYear() % 100).padStart(2, '0')],
  ['PM', (d) => (d.getUTCHours() < 12 ? 'AM' : 'PM')],
];

/** A date written with Go's reference layout (`2006-01-02T15:04:05Z07:00`), in UTC. */
export function formatGoTime(date: Date, layout: string): string {
  let out = '';
  let rest = layout;
  while (rest !== '') {
    const token = GO_LAYOUT_TOKENS.find(([name]) => rest.startsWith(name));
    if (token === undefined) {
      out += rest[0] ?? '';
      rest = rest.slice(1);
    } else {
      out += token[1](date);
      rest = rest.slice(token[0].length);
    }
  }
  return out;
}

function timeValue(date: Date): MethodValue {
  return {
    methods: {
      Format: (layout) => formatGoTime(date, goText(layout)),
      UTC: () => timeValue(date),
      Unix: () => Math.floor(date.getTime() / 1000),
      String: () => date.toISOString(),
    },
    print: () => date.toISOString(),
  };
}

function dateOf(value: unknown): Date {
  const date = new Date(goText(value));
  if (Number.isNaN(date.getTime())) throw new GoTemplateError(`${goPrint(value)} is not a time`);
  return date;
}

function printf(format: unknown, ...args: unknown[]): string {
  let index = 0;
  return goText(format).replace(/%([-+ 0#]*\d*(?:\.\d+)?)([svdqtfx%])/g, (_match, _flags: string, verb: string) => {
    if (verb === '%') return '%';
    const arg = args[index];
    index += 1;
    if (arg === undefined) return `%!${verb}(MISSING)`;
    if (verb === 'q') return goQuote(arg);
    if (verb === 'd') return String(Math.trunc(numberOf(arg)));
    if (verb === 'f') return numberOf(arg).toFixed(6);
    if (verb === 'x') return Math.trunc(numberOf(arg)).toString(16);
    return goText(arg);
  });
}

function index(collection: unknown, ...keys: unknown[]): unknown {
  let value = collection;
  for (const key of keys) {
    if (Array.isArray(value)) {
      const position = numberOf(key);
      if (!Number.isInteger(position) || position < 0 || position >= value.length) throw new GoTemplateError(`index out of range: ${goPrint(key)}`);
      value = value[position];
    } else if (typeof value === 'object' && value !== null && !isMethodValue(value)) {
      const name = goText(key);
      value = Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : NO_VALUE;
    } else if (value === null || value === undefined || value === NO_VALUE) {
      throw new GoTemplateError('index of untyped nil');
    } else throw new GoTemplateError(`can't index item of type ${typeof value}`);
  }
  return value;
}

function length(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  throw new GoTemplateError(`len of ${goPrint(value)}`);
}

function fromJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new GoTemplateError(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  throw new GoTemplateError(`${goPrint(value)} is not a list`);
}

/** gomplate's `join list sep`, also as a pipeline writes it (`.list | join ","`, the list last). */
function joined(first: unknown, second: unknown): string {
  return Array.isArray(second) && !Array.isArray(first) ? second.map(goText).join(goText(first)) : list(first).map(goText).join(goText(second));
}

function title(value: unknown): string {
  return goText(value).replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_match, before: string, letter: string) => `${before}${letter.toUpperCase()}`);
}

const STRING_FUNCTIONS = {
  ToUpper: (s) => goText(s).toUpperCase(),
  ToLower: (s) => goText(s).toLowerCase(),
  Title: title,
  TrimSpace: (s) => goText(s).trim(),
  Trim: (cutset, s) => trimSet(goText(s), goText(cutset), true, true),
  TrimLeft: (cutset, s) => trimSet(goText(s), goText(cutset), true, false),
  TrimRight: (cutset, s) => trimSet(goText(s), goText(cutset), false, true),
  TrimPrefix: (prefix, s) => (goText(s).startsWith(goText(prefix)) ? goText(s).slice(goText(prefix).length) : goText(s)),
  TrimSuffix: (suffix, s) => (goText(s).endsWith(goText(suffix)) && goText(suffix) !== '' ? goText(s).slice(0, -goText(suffix).length) : goText(s)),
  ReplaceAll: (old, replacement, s) => goText(s).replaceAll(goText(old), goText(replacement)),
  Contains: (substring, s) => goText(s).includes(goText(substring)),
  HasPrefix: (prefix, s) => goText(s).startsWith(goText(prefix)),
  HasSuffix: (suffix, s) => goText(s).endsWith(goText(suffix)),
  Split: (separator, s) => goText(s).split(goText(separator)),
  Repeat: (count, s) => goText(s).repeat(Math.max(0, Math.min(10_000, Math.trunc(numberOf(count))))),
  Quote: goQuote,
  Squote: (s) => `'${goText(s).replaceAll("'", "''")}'`,
  ShellQuote: shellQuote,
  Indent: (width, s) => goText(s).replace(/^/gm, ' '.repeat(Math.max(0, Math.min(100, Math.trunc(numberOf(width)))))),
} satisfies Record<string, GoFunction>;

/** gomplate's `jq expression input` (`{{ .config | jq ".spec.replicas" }}`) over the paths jq-path reads. */
function jq(expression: unknown, input: unknown): unknown {
  try {
    return runJqPath(goText(expression), plain(input));
  } catch (error) {
    if (error instanceof JqPathError) throw new GoTemplateError(error.message);
    throw error;
  }
}

function trimSet(value: string, cutset: string, left: boolean, right: boolean): string {
  let start = 0;
  let end = value.length;
  while (left && start < end && cutset.includes(value[start] ?? '')) start += 1;
  while (right && end > start && cutset.includes(value[end - 1] ?? '')) end -= 1;
  return value.slice(start, end);
}

/**
 * The names Go and gomplate give these functions. A caller adds its own (playbooks add `getAction` and
 * `getLastAction`) and parses with the names of the table it runs with.
 */
export function goTemplateFunctions(now: () => Date = () => new Date()): Record<string, GoFunction> {
  const functions: Record<string, GoFunction> = {
    and: (...args) => args.find((arg) => !goTruthy(arg)) ?? args.at(-1),
    or: (...args) => args.find((arg) => goTruthy(arg)) ?? args.at(-1),
    not: (value) => !goTruthy(value),
    eq: (a, ...others) => others.some((other) => equal(a, other)),
    ne: (a, b) => !equal(a, b),
    lt: (a, b) => compare(a, b) < 0,
    le: (a, b) => compare(a, b) <= 0,
    gt: (a, b) => compare(a, b) > 0,
    ge: (a, b) => compare(a, b) >= 0,
    len: length,
    index,
    print: (...args) => args.map(goText).join(''),
    println: (...args) => `${args.map(goText).join(' ')}\n`,
    printf,
    urlquery: (...args) => encodeURIComponent(args.map(goText).join('')),
    default: (fallback, value) => (goTruthy(value) ? value : fallback),
    required: (message, value) => {
      if (!goTruthy(value)) throw new GoTemplateError(goText(message));
      return value;
    },
    coalesce: (...args) => args.find((arg) => goTruthy(arg)) ?? null,
    ternary: (whenTrue, whenFalse, condition) => (goTruthy(condition) ? whenTrue : whenFalse),
    toJSON: (value) => JSON.stringify(plain(value)),
    toJSONPretty: (indent, value) => JSON.stringify(plain(value), null, goText(indent)),
    json: fromJson,
    fromJSON: fromJson,
    toYAML: (value) => toYaml(plain(value)),
    toString: goText,
    toInt: (value) => Math.trunc(numberOf(value)),
    toFloat: numberOf,
    toBool: (value) => ['true', '1', 'yes'].includes(goText(value).trim().toLowerCase()),
    atoi: (value) => Math.trunc(numberOf(value)),
    lower: STRING_FUNCTIONS.ToLower,
    upper: STRING_FUNCTIONS.ToUpper,
    toLower: STRING_FUNCTIONS.ToLower,
    toUpper: STRING_FUNCTIONS.ToUpper,
    title,
    trim: (s) => goText(s).trim(),
    trimSpace: (s) => goText(s).trim(),
    replace: STRING_FUNCTIONS.ReplaceAll,
    replaceAll: STRING_FUNCTIONS.ReplaceAll,
    quote: goQuote,
    squote: STRING_FUNCTIONS.Squote,
    shellQuote,
    contains: STRING_FUNCTIONS.Contains,
    hasPrefix: STRING_FUNCTIONS.HasPrefix,
    hasSuffix: STRING_FUNCTIONS.HasSuffix,
    split: STRING_FUNCTIONS.Split,
    join: joined,
    indent: STRING_FUNCTIONS.Indent,
    slice: (...items) => items,
    has: (collection, key) => (Array.isArray(collection) ? collection.some((item) => equal(item, key)) : typeof collection === 'object' && collection !== null && Object.hasOwn(collection, goText(key))),
    keys: (map) => (typeof map === 'object' && map !== null ? Object.keys(map).sort() : []),
    now: () => timeValue(now()),
    'time.Now': () => timeValue(now()),
    'time.Parse': (layout, value) => timeValue(dateOf(value)),
    'time.Unix': (seconds) => timeValue(new Date(numberOf(seconds) * 1000)),
    'base64.Encode': (value) => Buffer.from(goText(value), 'utf8').toString('base64'),
    'base64.Decode': (value) => Buffer.from(goText(value), 'base64').toString('utf8'),
    'data.ToJSON': (value) => JSON.stringify(plain(value)),
    'data.JSON': fromJson,
    'data.ToYAML': (value) => toYaml(plain(value)),
    'conv.ToString': goText,
    'conv.ToInt': (value) => Math.trunc(numberOf(value)),
    'conv.Join': joined,
    'coll.Slice': (...items) => items,
    jq: jq,
    'coll.JQ': jq,
    'coll.Has': (collection, key) => typeof collection === 'object' && collection !== null && Object.hasOwn(collection, goText(key)),
  };
  for (const [name, fn] of Object.entries(STRING_FUNCTIONS)) functions[`strings.${name}`] = fn;
  return functions;
}
