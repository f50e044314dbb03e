import { errors } from './errors';
import { placeholderProblem } from './credential-placeholders';
import {
  isSecretEnvelope,
  openBound,
  openLegacy,
  envelopeVersion,
  sealBound,
  SealedValueError,
  type SealedValueProblem,
  type SecretBinding,
  type SecretEnvelope,
} from './sealed-values';

/**
 * The one place that decides which fields of a JSON spec are secret, how they are sealed and where they may be sent
 * (ADR 0062). Canaries and their checks, scrapers and playbooks seal through it; connections, notifications and log
 * backends keep their secrets in columns the data API never reads or writes (`isSecretColumn`), and the registry of
 * every secret-bearing field of every kind is `SECRET_FIELDS` below.
 */

/** Keys whose value is a secret wherever they appear (`secretKey` too: S3-style checks name their secret so). */
const SECRET_KEY = /(password|passwd|secret|secret[-_]?key|token|bearer|api[-_]?key|access[-_]?key|private[-_]?key|credentials?)$/i;
/**
 * Headers whose values are public by definition: content negotiation, caching and conditional requests, and how the
 * request is routed (ADR 0043). Every other header may carry a credential under a name nobody can predict.
 */
const PUBLIC_HEADERS = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'connection',
  'content-language',
  'content-type',
  'dnt',
  'host',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'origin',
  'pragma',
  'range',
  'referer',
  'user-agent',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-requested-with',
]);
/** Query parameters that carry a credential when a URL is written with one (`?api_key=…`, `&access_token=…`). */
const SECRET_QUERY_PARAMETER = /(^|[-_])(key|apikey|token|secret|password|passwd|pwd|signature|sig|auth|credentials?)$/i;
/** `scheme://user:password@…` with a non-empty password. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:([^/?#@]+)@/i;
/** Mission Control's stand-in for the password field, filled in at run time (urlWithCredentials). */
const PASSWORD_PLACEHOLDER = '$(password)';

/** `scheme://user:password@…`: a URL that carries a password of its own (`$(password)` only names the field's). */
export function urlHoldsPassword(text: string): boolean {
  const password = URL_WITH_PASSWORD.exec(text.trim())?.[1];
  return password !== undefined && password !== PASSWORD_PLACEHOLDER;
}
/** Fields that say where a part of a spec sends its requests, in the order they win. */
const DESTINATION_FIELDS = ['url', 'endpoint', 'addr', 'connection', 'host'] as const;
const URL_FIELDS = new Set(['url', 'connection', 'endpoint']);

export const isSecretKeyName = (name: string): boolean => SECRET_KEY.test(name);
export const isSecretHeaderName = (name: string): boolean => !PUBLIC_HEADERS.has(name.trim().toLowerCase());

/** The names of `?name=value` parameters of a URL that carry a credential; none when the text is no URL. */
export function secretQueryParameters(text: string): string[] {
  const query = text.indexOf('?');
  if (query < 0) return [];
  const names: string[] = [];
  for (const pair of text.slice(query + 1).split('#')[0]?.split('&') ?? []) {
    const [rawName = '', value = ''] = pair.split('=');
    let name = rawName;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      // A name that is not valid percent-encoding is judged as written.
    }
    // `$(…)` and `{{…}}` are references filled in at run time, not a credential written into the spec.
    if (value !== '' && !/^(\$\(|%24%28|\{\{|%7B%7B)/i.test(value) && SECRET_QUERY_PARAMETER.test(name)) names.push(name);
  }
  return names;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

/**
 * Where a part of a spec talks to: the origin of its URL (scheme, host and port, default ports filled in), else its
 * endpoint, address, connection reference or host, lower-cased. A URL with a password in it is a sealed value itself
 * (or refused), never a destination; a part that names none talks to nothing outside the server ('').
 */
export function destinationOf(part: Record<string, unknown>): string {
  for (const field of DESTINATION_FIELDS) {
    const value = part[field];
    if (typeof value !== 'string' || value.trim() === '' || urlHoldsPassword(value)) continue;
    const text = value.trim();
    const port = field === 'host' && (typeof part.port === 'number' || typeof part.port === 'string') ? `:${String(part.port)}` : '';
    return normaliseTarget(text) + port;
  }
  return '';
}

function normaliseTarget(text: string): string {
  // A stored connection is named by namespace and name, both of which tell one destination from another.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^connection:\/\//i.test(text)) return text.toLowerCase();
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin.toLowerCase();
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    // A template or a placeholder in the host: the text up to the path is what the value is bound to.
    return (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(text)?.[0] ?? text).toLowerCase();
  }
}

/** How one kind of resource lays out its spec: which parts talk to a destination, and its own secret positions. */
export interface SpecLayout {
  kind: SecretBinding['kind'];
  /** The parts of the spec (check entries, scraper sources, playbook actions) with the path errors name them by. */
  parts(spec: Record<string, unknown>): Array<{ path: string; value: Record<string, unknown> }>;
  /** `env` entries: all of them secret, or only those with a secret-looking name. */
  env: 'all' | 'secret-names';
  /** Positions beyond the shared rules, by their path inside a part (scrapers: a user name, an SQL DSN). */
  extraSecret?(relative: string, value: unknown): boolean;
  /** The destination of a part when the layout knows better than `destinationOf` (playbook actions nest theirs). */
  destination?(part: Record<string, unknown>): string;
}

export type SecretProblem =
  | { kind: 'undecryptable'; path: string }
  | { kind: 'password-in-url'; path: string }
  | { kind: 'placeholder-in-url'; path: string; rule: string }
  | { kind: 'secret-in-url'; path: string; parameter: string };

export interface SealResult<T> {
  spec: T;
  /** Plaintext values replaced by envelopes. */
  sealed: number;
  /** Envelopes that no longer open where they now stand (the destination changed, or they were copied): removed. */
  dropped: string[];
  problems: SecretProblem[];
}

const DROP = Symbol('drop');

type Mode = { kind: 'seal' } | { kind: 'open' } | { kind: 'reseal-legacy' };

/** Walks one part of a spec; every envelope and secret position meets the part's binding. */
class PartWalker {
  sealed = 0;
  readonly dropped: string[] = [];
  readonly problems: SecretProblem[] = [];

  constructor(
    private readonly key: Buffer,
    private readonly layout: SpecLayout,
    private readonly mode: Mode,
    private readonly scope: { resource: string; destination: string },
  ) {}

  private binding(relative: string): SecretBinding {
    return { kind: this.layout.kind, resource: this.scope.resource, path: relative, destination: this.scope.destination };
  }

  walk(value: unknown, path: string, relative: string): unknown {
    if (isSecretEnvelope(value)) return this.envelope(value, path, relative);
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      value.forEach((item, index) => {
        const next = this.walk(item, join(path, index), join(relative, index));
        if (next !== DROP) out.push(next);
      });
      return out;
    }
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value)) {
      const childPath = join(path, name);
      const childRelative = join(relative, name);
      let next: unknown;
      // Labels are copied into every row and shown as filters: metadata, never a place for a secret.
      if (name === 'labels') next = child;
      else if (name === 'headers') next = this.named(child, (header) => isSecretHeaderName(header), childPath, childRelative);
      else if (name === 'env') next = this.named(child, (variable) => this.layout.env === 'all' || isSecretKeyName(variable), childPath, childRelative);
      else if (isSecretKeyName(name) || name === 'body' || this.layout.extraSecret?.(childRelative, child) === true) next = this.secret(child, childPath, childRelative);
      else {
        if (URL_FIELDS.has(name) && typeof child === 'string') this.checkUrl(child, childPath);
        next = this.walk(child, childPath, childRelative);
      }
      if (next !== DROP) out[name] = next;
    }
    return out;
  }

  private checkUrl(text: string, path: string): void {
    if (this.mode.kind !== 'seal') return;
    if (urlHoldsPassword(text)) this.problems.push({ kind: 'password-in-url', path });
    const rule = placeholderProblem(text);
    if (rule !== null) this.problems.push({ kind: 'placeholder-in-url', path, rule });
    for (const parameter of secretQueryParameters(text)) this.problems.push({ kind: 'secret-in-url', path, parameter });
  }

  /** A value in a secret position: a plain string or `{value}` is sealed; a reference (`valueFrom`) is left alone. */
  private secret(value: unknown, path: string, relative: string): unknown {
    const plaintext = typeof value === 'string' ? value : isRecord(value) && typeof value.value === 'string' && value.valueFrom === undefined ? value.value : null;
    if (plaintext === null || plaintext === '' || this.mode.kind !== 'seal') return this.walk(value, path, relative);
    this.sealed += 1;
    return sealBound(this.key, plaintext, this.binding(relative));
  }

  /** `headers` and `env`, as a map or as a `[{name, value}]` list; entries are bound by name, not by position. */
  private named(value: unknown, isSecretName: (name: string) => boolean, path: string, relative: string): unknown {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      value.forEach((entry: unknown, index) => {
        const entryPath = join(path, index);
        if (!isRecord(entry) || typeof entry.name !== 'string' || !('value' in entry)) {
          out.push(this.walk(entry, entryPath, join(relative, index)));
          return;
        }
        const byName = join(relative, entry.name.toLowerCase());
        const inner = isSecretName(entry.name) ? this.secret(entry.value, join(entryPath, 'value'), byName) : this.walk(entry.value, join(entryPath, 'value'), byName);
        if (inner !== DROP) out.push({ ...entry, value: inner });
      });
      return out;
    }
    if (!isRecord(value) || isSecretEnvelope(value)) return this.walk(value, path, relative);
    const out: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(value)) {
      const byName = join(relative, name.toLowerCase());
      const next = isSecretName(name) ? this.secret(entry, join(path, name), byName) : this.walk(entry, join(path, name), byName);
      if (next !== DROP) out[name] = next;
    }
    return out;
  }

  private envelope(envelope: SecretEnvelope, path: string, relative: string): unknown {
    const binding = this.binding(relative);
    if (this.mode.kind === 'reseal-legacy') {
      if (envelopeVersion(this.key, envelope) !== 'legacy') return envelope;
      try {
        const plaintext = openLegacy(this.key, envelope);
        this.sealed += 1;
        return sealBound(this.key, plaintext, binding);
      } catch {
        this.problems.push({ kind: 'undecryptable', path });
        return envelope;
      }
    }
    try {
      const plaintext = openBound(this.key, envelope, binding);
      return this.mode.kind === 'open' ? plaintext : envelope;
    } catch (error) {
      const problem: SealedValueProblem = error instanceof SealedValueError ? error.problem : 'malformed';
      if (this.mode.kind === 'open') throw new SpecSecretError(path, problem);
      if (problem !== 'binding') {
        this.problems.push({ kind: 'undecryptable', path });
        return envelope;
      }
      this.dropped.push(path);
      return DROP;
    }
  }
}

/** A run found an envelope it cannot open where it stands; the message says what to do, never what was sealed. */
export class SpecSecretError extends Error {
  constructor(
    readonly path: string,
    readonly problem: SealedValueProblem,
  ) {
    super(
      problem === 'binding'
        ? `The secret at ${path} was sealed for another resource, field or destination; enter it again`
        : `The secret at ${path} cannot be decrypted with this server's key; enter it again`,
    );
    this.name = 'SpecSecretError';
  }
}

interface Walked<T> {
  spec: T;
  walkers: PartWalker[];
}

function walkSpec<T>(key: Buffer, layout: SpecLayout, resource: string, spec: T, mode: Mode): Walked<T> {
  const walkers: PartWalker[] = [];
  const walker = (destination: string): PartWalker => {
    const created = new PartWalker(key, layout, mode, { resource, destination });
    walkers.push(created);
    return created;
  };
  if (!isRecord(spec)) return { spec, walkers };
  const parts = layout.parts(spec);
  const partPaths = new Map(parts.map((part) => [part.value, part.path]));
  const destinationFor = layout.destination ?? destinationOf;
  // The parts are rebuilt in place: the walk of the whole spec swaps each part object for its walked copy.
  const rebuild = (value: unknown, path: string): unknown => {
    if (isRecord(value) && partPaths.has(value)) return walker(destinationFor(value)).walk(value, path, '');
    if (Array.isArray(value)) return value.map((item, index) => rebuild(item, join(path, index)));
    if (!isRecord(value)) return value;
    if (isSecretEnvelope(value)) return walker('').walk(value, path, path);
    const out: Record<string, unknown> = {};
    const rest = walker('');
    for (const [name, child] of Object.entries(value)) {
      const childPath = join(path, name);
      const holdsPart = (candidate: unknown): boolean =>
        (isRecord(candidate) && (partPaths.has(candidate) || Object.values(candidate).some(holdsPart))) || (Array.isArray(candidate) && candidate.some(holdsPart));
      if (holdsPart(child)) out[name] = rebuild(child, childPath);
      else {
        // Fields outside every part (a canary's own env, a playbook's parameters) are bound to the resource alone.
        const walked = rest.walk({ [name]: child }, path, path === '' ? '' : path) as Record<string, unknown>;
        if (name in walked) out[name] = walked[name];
      }
    }
    return out;
  };
  return { spec: rebuild(spec, '') as T, walkers };
}

/** The write path: plaintext sealed and bound where it stands; envelopes kept if they open there, dropped if not. */
export function sealSpec<T>(key: Buffer, layout: SpecLayout, resource: string, spec: T): SealResult<T> {
  const { spec: sealed, walkers } = walkSpec(key, layout, resource, spec, { kind: 'seal' });
  return {
    spec: sealed,
    sealed: walkers.reduce((sum, walker) => sum + walker.sealed, 0),
    dropped: walkers.flatMap((walker) => walker.dropped),
    problems: walkers.flatMap((walker) => walker.problems),
  };
}

/** The run path: every envelope replaced by its plaintext, or SpecSecretError when one does not open where it is. */
export function openSpec(key: Buffer, layout: SpecLayout, resource: string, spec: Record<string, unknown>): Record<string, unknown> {
  return walkSpec(key, layout, resource, spec, { kind: 'open' }).spec;
}

/** The one-time sweep: envelopes of before ADR 0062 sealed again, bound to where they are stored. */
export function resealLegacy<T>(key: Buffer, layout: SpecLayout, resource: string, spec: T): SealResult<T> {
  const { spec: resealed, walkers } = walkSpec(key, layout, resource, spec, { kind: 'reseal-legacy' });
  return { spec: resealed, sealed: walkers.reduce((sum, walker) => sum + walker.sealed, 0), dropped: [], problems: walkers.flatMap((walker) => walker.problems) };
}

/** sealSpec for a write: the first problem is the coded 400 the writer gets, naming the field. */
export function sealSpecOrRefuse<T>(key: Buffer, layout: SpecLayout, resource: string, spec: T): SealResult<T> {
  const result = sealSpec(key, layout, resource, spec);
  const [problem] = result.problems;
  if (problem === undefined) return result;
  if (problem.kind === 'undecryptable') throw errors.undecryptableSpecSecret(problem.path);
  if (problem.kind === 'password-in-url') throw errors.passwordInUrl(problem.path);
  if (problem.kind === 'placeholder-in-url') throw errors.placeholderInUrl(problem.path, problem.rule);
  throw errors.secretInUrl(problem.path, problem.parameter);
}

/** Whether a spec holds a secret at all: plaintext in a secret position, or an envelope. */
export function holdsSecrets(layout: SpecLayout, spec: unknown): boolean {
  // Any key does: only whether something would be sealed, kept or dropped is asked, never what it holds.
  const probe = sealSpec(Buffer.alloc(32), layout, 'probe', spec);
  return probe.sealed > 0 || probe.dropped.length > 0 || probe.problems.some((problem) => problem.kind === 'undecryptable');
}

/** One secret-bearing field of one kind of resource: how it is kept, who sees what, and where it may go. */
export interface SecretField {
  kind: 'canary' | 'scraper' | 'playbook' | 'connection';
  /** The field as a writer names it in a spec or a form. */
  field: string;
  /** How it is kept at rest. */
  sealed: 'bound envelope' | 'encrypted column';
  /** Where the server may send the plaintext, and nowhere else. */
  sentTo: string;
}

const TO_CHECK = "the destination of the check it belongs to (its URL's origin, endpoint, address or connection)";
const TO_SOURCE = "the destination of the scraper source it belongs to (its URL's origin or the DSN's own server)";
const TO_ACTION = "the destination of the playbook action it belongs to (the rendered URL's origin, the SQL connection, or the exec sandbox's environment)";
const TO_CONNECTION = "the connection's own scheme, host and port";

/**
 * Every secret-bearing field of every kind, for docs/security.md and for the test that writes each one through its
 * API and searches the database, every API answer, the audit log and the server log for it
 * (test/security/secret-fields.test.ts). Who reads envelopes: roles that may write the resource (the others get the
 * empty envelope); encrypted columns: nobody through the API. Notifications and log backends hold no secret: they
 * name a connection.
 */
export const SECRET_FIELDS: readonly SecretField[] = [
  { kind: 'canary', field: 'headers (a map), every header off the public list', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'canary', field: 'headers (a [{name, value}] list), every header off the public list', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'canary', field: 'body', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'canary', field: 'every key ending in password, secret, token, apiKey, accessKey, privateKey or credentials', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'canary', field: 'env entries with a secret name (of a check or of the canary)', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'canary', field: 'tlsConfig.key (a client certificate\'s private key)', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'canary', field: 'the password of a database or http(s) URL, moved to the password field at save', sealed: 'bound envelope', sentTo: TO_CHECK },
  { kind: 'scraper', field: 'username and auth.username of a source', sealed: 'bound envelope', sentTo: TO_SOURCE },
  { kind: 'scraper', field: 'password and other secret-named keys of a source', sealed: 'bound envelope', sentTo: TO_SOURCE },
  { kind: 'scraper', field: 'headers of an http source, every header off the public list', sealed: 'bound envelope', sentTo: TO_SOURCE },
  { kind: 'scraper', field: 'connection or url of a source written as a DSN with a password', sealed: 'bound envelope', sentTo: TO_SOURCE },
  { kind: 'playbook', field: 'http.headers of an action, every header off the public list', sealed: 'bound envelope', sentTo: TO_ACTION },
  { kind: 'playbook', field: 'http.body of an action', sealed: 'bound envelope', sentTo: TO_ACTION },
  { kind: 'playbook', field: 'exec.env values of an action (every value)', sealed: 'bound envelope', sentTo: TO_ACTION },
  { kind: 'connection', field: 'password', sealed: 'encrypted column', sentTo: TO_CONNECTION },
  { kind: 'connection', field: 'certificate (or kubeconfig)', sealed: 'encrypted column', sentTo: TO_CONNECTION },
  { kind: 'connection', field: 'secret_properties', sealed: 'encrypted column', sentTo: TO_CONNECTION },
];
