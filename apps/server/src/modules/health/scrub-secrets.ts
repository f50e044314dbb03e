import type { ResolvedConnection } from '../connections';
import { isSecretEnvelope } from './canary-secrets';

export const REDACTED = '[REDACTED]';
/** Shorter values would redact ordinary words and digits everywhere; they are too short to be worth hiding anyway. */
export const MIN_SECRET_LENGTH = 4;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A secret-capable field's plaintext: a string, or `{value}` as the spec allows. */
function plain(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isRecord(value) && typeof value.value === 'string') return value.value;
  return null;
}

/**
 * The secret values one check run was given: what the scheduler opened from the sealed spec, the exec check's
 * environment, and the credentials of every connection resolved for it. Each value is also kept in the forms a
 * result is likely to show it in (URL-encoded, and user:password as Basic auth's base64).
 */
export class SecretCollector {
  private readonly secrets = new Set<string>();

  add(value: unknown): void {
    const text = plain(value);
    if (text === null || text.length < MIN_SECRET_LENGTH) return;
    this.secrets.add(text);
    const encoded = encodeURIComponent(text);
    if (encoded !== text) this.secrets.add(encoded);
  }

  addCredentials(username: unknown, password: unknown): void {
    this.add(username);
    this.add(password);
    const user = plain(username);
    const pass = plain(password);
    if (user !== null && pass !== null && pass !== '') this.add(Buffer.from(`${user}:${pass}`, 'utf8').toString('base64'));
  }

  /** Walks the stored spec beside the opened one: every envelope's plaintext, and every username/password pair. */
  addOpenedSpec(sealed: unknown, opened: unknown): void {
    if (isSecretEnvelope(sealed)) {
      this.add(opened);
      return;
    }
    if (Array.isArray(sealed) && Array.isArray(opened)) {
      sealed.forEach((item, index) => this.addOpenedSpec(item, opened[index]));
      return;
    }
    if (!isRecord(sealed) || !isRecord(opened)) return;
    for (const [key, child] of Object.entries(sealed)) this.addOpenedSpec(child, opened[key]);
    if ('password' in opened) this.addCredentials(opened.username ?? '', opened.password);
  }

  /** An exec check hands its whole environment to a script that may print it: every value counts as a secret. */
  addEnvironment(env: unknown): void {
    if (Array.isArray(env)) {
      for (const entry of env) if (isRecord(entry)) this.add(entry.value);
      return;
    }
    if (isRecord(env)) for (const value of Object.values(env)) this.add(value);
  }

  addConnection(connection: ResolvedConnection): void {
    this.addCredentials(connection.username ?? '', connection.password);
    // A kubeconfig or a client key; a public certificate scrubbed from output costs nothing.
    this.add(connection.certificate);
    for (const value of Object.values(connection.secretProperties)) this.add(value);
    if (connection.url === null) return;
    try {
      const url = new URL(connection.url);
      if (url.password !== '') this.addCredentials(decodeURIComponent(url.username), decodeURIComponent(url.password));
    } catch {
      // Not a URL (e.g. host:port): nothing embedded to collect.
    }
  }

  /** Longest first, so a secret that contains another is replaced whole. */
  values(): string[] {
    return [...this.secrets].sort((a, b) => b.length - a.length);
  }
}

/**
 * A length cap (output kept, message cut at 4000 characters) can split a secret so that only its start is left at the
 * end of a string; that start is redacted too.
 */
function redactTrailingPrefix(text: string, secret: string): string {
  for (let length = Math.min(secret.length - 1, text.length); length >= MIN_SECRET_LENGTH; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return `${text.slice(0, text.length - length)}${REDACTED}`;
  }
  return text;
}

function scrubText(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) scrubbed = scrubbed.split(secret).join(REDACTED);
  for (const secret of secrets) scrubbed = redactTrailingPrefix(scrubbed, secret);
  return scrubbed;
}

/** Every string in the value, object keys included, with each secret replaced by [REDACTED]. */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return scrubText(item, secrets);
    if (Array.isArray(item)) return item.map(walk);
    if (isRecord(item)) return Object.fromEntries(Object.entries(item).map(([key, child]) => [scrubText(key, secrets), walk(child)]));
    return item;
  };
  return walk(value) as T;
}
