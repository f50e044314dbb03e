import type pg from 'pg';
import { connectionUrlOf, resolveConnection, type ResolvedConnection } from '../connections';
import { runCheck, type CheckResult } from './checkers/run-check';
import { scrubSecrets, SecretCollector } from './scrub-secrets';
import { resolveValueReferences, ValueReferenceError } from './value-references';

/** Opens stored connections for one run, each one's secrets joining the run's scrub list. */
export function connectionOpener(pool: pg.Pool, secretKey: Buffer, secrets: SecretCollector): (reference: string) => Promise<ResolvedConnection> {
  return async (reference) => {
    const connection = await resolveConnection(pool, secretKey, reference);
    secrets.addConnection(connection);
    return connection;
  };
}

/**
 * The spec with its `valueFrom` references put in place (ADR 0075), their values added to the scrub list; or the
 * failed result that names the reference that could not be resolved.
 */
export async function withReferencesResolved(
  pool: pg.Pool,
  spec: Record<string, unknown>,
  namespace: string | null,
  opened: (reference: string) => Promise<ResolvedConnection>,
  secrets: SecretCollector,
): Promise<{ spec: Record<string, unknown> } | { failed: CheckResult }> {
  try {
    const resolved = await resolveValueReferences(spec, namespace, opened, (reference) => connectionUrlOf(pool, reference));
    if (resolved.secrets.length > 0) {
      for (const value of resolved.secrets) secrets.add(value);
      // A user name and password put in place here were not in the opened spec: their Basic header is scrubbed too.
      if ('password' in resolved.spec) secrets.addCredentials(resolved.spec.username ?? '', resolved.spec.password);
    }
    return { spec: resolved.spec };
  } catch (error) {
    if (!(error instanceof ValueReferenceError)) throw error;
    return { failed: { pass: false, durationMs: 0, message: error.message, error: error.message, details: null } };
  }
}

export interface UnsavedCheckOptions {
  pool: pg.Pool;
  secretKey: Buffer;
  /** The namespace its connection and value references are read in. */
  namespace: string | null;
  signal?: AbortSignal;
}

/**
 * One check run now, outside any canary (a topology lookup): expressions included, connections and value references
 * opened for this run only, and every secret they gave scrubbed from the variables the expressions read and from the
 * result. The spec holds no sealed value: a topology refuses secrets at save.
 */
export async function runUnsavedCheck(options: UnsavedCheckOptions, type: string, spec: Record<string, unknown>): Promise<CheckResult> {
  const { pool, secretKey } = options;
  const secrets = new SecretCollector();
  const opened = connectionOpener(pool, secretKey, secrets);
  const referenced = await withReferencesResolved(pool, spec, options.namespace, opened, secrets);
  if ('failed' in referenced) return referenced.failed;
  const result = await runCheck(type, referenced.spec, {
    pool,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    resolveConnection: opened,
    redact: (data) => scrubSecrets(data, secrets.values()),
  });
  return scrubSecrets(result, secrets.values());
}
