import { createHash, randomUUID } from 'node:crypto';
import { Duration, type Environment } from '@marcbachmann/cel-js/evaluator';
import { runJqPath } from '../go-template/jq-path';
import { isRecord } from '../json-values';
import { kubernetesHealth } from '../kubernetes-health';
import { celToJson, celToText, fromCel, toCel } from './cel-values';
import { humanDuration, humanSize, parseGoDuration } from './human-format';
import { matchQuery } from './match-query';
import { semverSatisfies } from './semver';

/** No function builds a string longer than this, so `"x".repeat(…)` or `format` cannot eat the heap. */
export const MAX_BUILT_STRING = 1024 * 1024;

const NANOS_PER_SECOND = 1_000_000_000n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bounded(text: string): string {
  if (text.length > MAX_BUILT_STRING) throw new Error(`the result would be longer than ${MAX_BUILT_STRING} characters`);
  return text;
}

export function durationFromNanos(nanos: number | bigint): Duration {
  const total = typeof nanos === 'bigint' ? nanos : BigInt(Math.trunc(nanos));
  return new Duration(total / NANOS_PER_SECOND, Number(total % NANOS_PER_SECOND));
}

export function durationNanos(duration: Duration): number {
  return Number(duration.seconds) * 1e9 + duration.nanos;
}

function parseDurationText(text: string): Duration {
  const nanos = parseGoDuration(text);
  if (nanos === null) throw new Error(`'${text}' is not a duration (e.g. 30s, 1h30m, 7d)`);
  return durationFromNanos(nanos);
}

function timestampOf(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    const parsed = new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  throw new Error(`'${celToText(value)}' is not a timestamp`);
}

function numberOf(value: unknown): number {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  throw new Error(`'${celToText(value)}' is not a number`);
}

/** printf-style verbs as Go's fmt writes them for the values CEL holds: %s %v %d %f %.Nf %q %t %%. */
export function formatText(template: string, args: readonly unknown[]): string {
  let next = 0;
  const out = template.replace(/%(\.\d+)?([svdfqtx%])/g, (whole, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) return `%!${verb}(MISSING)`;
    const value = args[next];
    next += 1;
    switch (verb) {
      case 'd':
        return String(Math.trunc(numberOf(value)));
      case 'f':
        return numberOf(value).toFixed(precision === undefined ? 6 : Number(precision.slice(1)));
      case 'q':
        return JSON.stringify(celToText(value));
      case 'x':
        return Math.trunc(numberOf(value)).toString(16);
      default:
        return celToText(value);
    }
  });
  return bounded(out);
}

function flatten(list: readonly unknown[], depth = 0): unknown[] {
  if (depth > 32) throw new Error('the list is nested too deep to flatten');
  return list.flatMap((item: unknown) => (Array.isArray(item) ? flatten(item, depth + 1) : [item]));
}

function compareCel(a: unknown, b: unknown): number {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new Error('sort() needs a list of numbers or of strings');
}

function distinct(list: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = celToJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function parseJsonText(text: string): unknown {
  try {
    return toCel(JSON.parse(text));
  } catch (error) {
    throw new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function titleCase(text: string): string {
  return text.replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`);
}

/** Namespaces (`time.Now()`, `crypto.SHA256(…)`) are constants of their own type whose functions take it as receiver. */
class TimeNamespace {
  readonly namespace = 'time';
}
class CryptoNamespace {
  readonly namespace = 'crypto';
}
class UuidNamespace {
  readonly namespace = 'uuid';
}
class Base64Namespace {
  readonly namespace = 'base64';
}
class K8sNamespace {
  readonly namespace = 'k8s';
}

/** A Kubernetes object, or canary-checker's `{Object: …}` wrapper of one, judged as the catalog judges it. */
function k8sHealthOf(value: unknown): { status: string; health: string; ready: boolean; message: string } {
  const plain = fromCel(value);
  const wrapper = isRecord(plain) && isRecord(plain.Object) ? plain.Object : plain;
  const object = isRecord(wrapper) ? wrapper : {};
  const health = kubernetesHealth(typeof object.kind === 'string' ? object.kind : '', object);
  return { status: health.status, health: health.health, ready: health.ready, message: health.status };
}

const HASHES = { SHA1: 'sha1', SHA224: 'sha224', SHA256: 'sha256', SHA384: 'sha384', SHA512: 'sha512' } as const;

/**
 * The functions canary-checker's and Mission Control's expressions use most (flanksource gomplate's CEL library),
 * written for cel-js: strings, lists, maps, JSON, durations and time, human-readable sizes and durations, semantic
 * versions, hashes, UUIDs and base64. None of them reads files, the network, the environment or the clock beyond
 * `time.Now()`, so an expression can only compute over the values it is given.
 */
export function registerCelFunctions(environment: Environment): void {
  const fn = (signature: string, handler: (...args: never[]) => unknown): void => {
    environment.registerFunction(signature, handler as (...args: unknown[]) => unknown);
  };

  // Strings (cel-js has lowerAscii, upperAscii, trim and split already).
  fn('string.trimPrefix(string): string', (s: string, prefix: string) => (s.startsWith(prefix) ? s.slice(prefix.length) : s));
  fn('string.trimSuffix(string): string', (s: string, suffix: string) => (suffix !== '' && s.endsWith(suffix) ? s.slice(0, -suffix.length) : s));
  fn('string.replace(string, string): string', (s: string, from: string, to: string) => bounded(s.split(from).join(to)));
  fn('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
    const parts = s.split(from);
    const limit = n < 0n ? parts.length : Number(n) + 1;
    return bounded([parts.slice(0, limit).join(to), ...parts.slice(limit)].join(from));
  });
  fn('string.replaceAll(string, string): string', (s: string, from: string, to: string) => bounded(s.split(from).join(to)));
  fn('string.format(list): string', (s: string, args: unknown[]) => formatText(s, args));
  fn('string.charAt(int): string', (s: string, at: bigint) => {
    const chars = [...s];
    if (at < 0n || at > BigInt(chars.length)) throw new Error(`index ${at} out of range`);
    return chars[Number(at)] ?? '';
  });
  fn('string.repeat(int): string', (s: string, n: bigint) => {
    if (n < 0n || BigInt(s.length) * n > BigInt(MAX_BUILT_STRING)) throw new Error(`repeat(${n}) would be longer than ${MAX_BUILT_STRING} characters`);
    return s.repeat(Number(n));
  });
  fn('string.title(): string', (s: string) => titleCase(s));
  fn('string.reverse(): string', (s: string) => [...s].reverse().join(''));
  fn('string.runeCount(): int', (s: string) => BigInt([...s].length));
  fn('string.squote(): string', (s: string) => `'${s.replaceAll("'", "''")}'`);
  fn('string.shellQuote(): string', (s: string) => `'${s.replaceAll("'", `'"'"'`)}'`);
  fn('string.JSON(): dyn', (s: string) => parseJsonText(s));
  fn('string.JSONArray(): list<dyn>', (s: string) => {
    const parsed = parseJsonText(s);
    if (!Array.isArray(parsed)) throw new Error('not a JSON array');
    return parsed;
  });

  // Lists.
  fn('list.slice(int, int): list<dyn>', (list: unknown[], from: bigint, to: bigint) => {
    if (from < 0n || to < from || to > BigInt(list.length)) throw new Error(`slice(${from}, ${to}) is out of range for a list of ${list.length}`);
    return list.slice(Number(from), Number(to));
  });
  fn('list.flatten(): list<dyn>', (list: unknown[]) => flatten(list));
  fn('list.sort(): list<dyn>', (list: unknown[]) => [...list].sort(compareCel));
  fn('list.distinct(): list<dyn>', (list: unknown[]) => distinct(list));
  fn('list.uniq(): list<dyn>', (list: unknown[]) => distinct(list));
  fn('list.reverse(): list<dyn>', (list: unknown[]) => [...list].reverse());

  // Maps.
  fn('map.keys(): list<dyn>', (map: Record<string, unknown>) => Object.keys(map));
  // Mission Control's resource-selector search over a resource (notification filters write matchQuery(.check, "…")).
  fn('matchQuery(map, string): bool', (resource: unknown, query: string) => {
    const plain = fromCel(resource);
    return matchQuery(isRecord(plain) ? plain : {}, query);
  });
  fn('map.values(): list<dyn>', (map: Record<string, unknown>) => Object.values(map));
  fn('map.merge(map): map', (map: Record<string, unknown>, other: Record<string, unknown>) => ({ ...map, ...other }));
  fn('map.omit(list): map', (map: Record<string, unknown>, keys: unknown[]) => {
    const dropped = new Set(keys.map(String));
    return Object.fromEntries(Object.entries(map).filter(([key]) => !dropped.has(key)));
  });
  fn('map.pick(list): map', (map: Record<string, unknown>, keys: unknown[]) => {
    const kept = new Set(keys.map(String));
    return Object.fromEntries(Object.entries(map).filter(([key]) => kept.has(key)));
  });

  // JSON.
  for (const receiver of ['list', 'map', 'string', 'int', 'double', 'bool']) {
    fn(`${receiver}.toJSON(): string`, (value: unknown) => bounded(celToJson(value)));
    fn(`${receiver}.toJSONPretty(string): string`, (value: unknown, indent: string) => bounded(celToJson(value, indent)));
  }
  fn('toJSON(dyn): string', (value: unknown) => bounded(celToJson(value)));
  // gomplate's jq as its CEL gives it (config-db's change rules: jq('.status.conditions[]? | select(…).message', patch)),
  // over the paths jq-path reads; one result is itself, several or none a list.
  fn('jq(string, dyn): dyn', (expression: string, value: unknown) => toCel(runJqPath(expression, fromCel(value))));

  // Durations and time.
  fn('Duration(string): google.protobuf.Duration', (text: string) => parseDurationText(text));
  fn('HumanDuration(dyn): string', (value: unknown) => humanDuration(value instanceof Duration ? durationNanos(value) : numberOf(value)));
  fn('HumanSize(dyn): string', (value: unknown) => humanSize(numberOf(value)));
  fn('SemverCompare(string, string): bool', (constraint: string, version: string) => semverSatisfies(constraint, version));
  environment.registerType('TimeNamespace', TimeNamespace);
  environment.registerConstant('time', 'TimeNamespace', new TimeNamespace());
  fn('TimeNamespace.Now(): google.protobuf.Timestamp', () => new Date());
  // CEL's standard conversions, which cel-js lacks, as cel-go prints them: RFC 3339 in UTC without a zero fraction, and seconds.
  fn('string(google.protobuf.Timestamp): string', (at: Date) => at.toISOString().replace('.000Z', 'Z'));
  fn('string(google.protobuf.Duration): string', (value: Duration) => `${durationNanos(value) / 1e9}s`);
  fn('TimeNamespace.Since(dyn): google.protobuf.Duration', (_: TimeNamespace, at: unknown) =>
    durationFromNanos((Date.now() - timestampOf(at).getTime()) * 1e6),
  );
  fn('TimeNamespace.Until(dyn): google.protobuf.Duration', (_: TimeNamespace, at: unknown) =>
    durationFromNanos((timestampOf(at).getTime() - Date.now()) * 1e6),
  );
  fn('TimeNamespace.ParseDuration(string): google.protobuf.Duration', (_: TimeNamespace, text: string) => parseDurationText(text));

  // Hashes, UUIDs, base64.
  environment.registerType('CryptoNamespace', CryptoNamespace);
  environment.registerConstant('crypto', 'CryptoNamespace', new CryptoNamespace());
  for (const [name, algorithm] of Object.entries(HASHES)) {
    fn(`CryptoNamespace.${name}(string): string`, (_: CryptoNamespace, text: string) => createHash(algorithm).update(text).digest('hex'));
  }
  environment.registerType('UuidNamespace', UuidNamespace);
  environment.registerConstant('uuid', 'UuidNamespace', new UuidNamespace());
  fn('UuidNamespace.V4(): string', () => randomUUID());
  fn('UuidNamespace.Nil(): string', () => '00000000-0000-0000-0000-000000000000');
  fn('UuidNamespace.IsValid(string): bool', (_: UuidNamespace, text: string) => UUID.test(text));
  environment.registerType('Base64Namespace', Base64Namespace);
  environment.registerConstant('base64', 'Base64Namespace', new Base64Namespace());
  fn('Base64Namespace.Encode(string): string', (_: Base64Namespace, text: string) => bounded(Buffer.from(text, 'utf8').toString('base64')));
  fn('Base64Namespace.Decode(string): string', (_: Base64Namespace, text: string) => Buffer.from(text, 'base64').toString('utf8'));

  // Kubernetes health (a kubernetes check's results, or catalog items' config).
  environment.registerType('K8sNamespace', K8sNamespace);
  environment.registerConstant('k8s', 'K8sNamespace', new K8sNamespace());
  fn('K8sNamespace.getHealth(dyn): map', (_: K8sNamespace, value: unknown) => k8sHealthOf(value));
  fn('K8sNamespace.getStatus(dyn): string', (_: K8sNamespace, value: unknown) => k8sHealthOf(value).status);
  fn('K8sNamespace.isHealthy(dyn): bool', (_: K8sNamespace, value: unknown) => k8sHealthOf(value).health === 'healthy');
  fn('K8sNamespace.isReady(dyn): bool', (_: K8sNamespace, value: unknown) => k8sHealthOf(value).ready);
}
