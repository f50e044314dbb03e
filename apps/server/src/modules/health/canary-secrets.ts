import type pg from 'pg';
import { placeholderProblem, splitUrlPassword } from '../../platform/credential-placeholders';
import { destinationOf, holdsSecrets as holdsSecretsIn, openSpec, resealLegacy, sealSpec, sealSpecOrRefuse, type SealResult, type SecretProblem, type SpecLayout } from '../../platform/secret-fields';

export { holdsSecrets } from '../../platform/secret-fields';

/** Whether a canary spec holds a value its layout would seal (a password, a non-public header, a body, …). */
export function canarySpecHoldsSecrets(spec: unknown): boolean {
  return holdsSecretsIn(CANARY_LAYOUT, spec);
}
import { syncCanaryChecks } from './canary-sync';
import { isJunitReportSpec } from './canary-spec';

export { isSecretEnvelope, type SecretEnvelope } from '../../platform/sealed-values';
export { SpecSecretError } from '../../platform/secret-fields';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A canary spec, bare or as a `kind: Canary` resource: each entry of a check-type list is one part. */
export const CANARY_LAYOUT: SpecLayout = {
  kind: 'canary',
  env: 'secret-names',
  // A client certificate's private key (tlsConfig.key; prometheus writes tls.key): `key` alone is too common a name to
  // seal everywhere.
  extraSecret: (relative) => relative === 'tlsConfig.key' || relative === 'tls.key',
  // An oauth2 check sends its client secret to the token URL, not to url: both origins bind what it seals, so changing
  // either asks for the secret again and no edit can send it elsewhere. A folder check's SFTP password is bound the
  // same way to the host it names.
  destination(part) {
    const tokenUrl = isRecord(part.oauth2) && typeof part.oauth2.tokenURL === 'string' ? part.oauth2.tokenURL : null;
    const sftp = isRecord(part.sftpConnection) ? part.sftpConnection : null;
    const own = sftp === null ? destinationOf(part) : `sftp ${destinationOf({ host: sftp.host, port: sftp.port ?? 22 })}`;
    return tokenUrl === null ? own : `${own} token ${destinationOf({ url: tokenUrl })}`;
  },
  parts(spec) {
    const inner = typeof spec.kind === 'string' && isRecord(spec.spec) ? spec.spec : spec;
    const prefix = inner === spec ? '' : 'spec.';
    return Object.entries(inner).flatMap(([key, list]) =>
      Array.isArray(list) ? list.flatMap((entry: unknown, index) => (isRecord(entry) ? [{ path: `${prefix}${key}[${index}]`, value: entry }] : [])) : [],
    );
  },
};

/**
 * A check row's spec is its canary's entry as written, so its secrets carry the canary's binding: the check opens
 * exactly what the canary sealed, and nothing sealed for another canary. A junit report's row holds the canary's check
 * lists (`resultMode: junit`), so each entry is a part there, bound as in the canary.
 */
export const CHECK_LAYOUT: SpecLayout = {
  ...CANARY_LAYOUT,
  parts: (spec) => (isJunitReportSpec(spec) ? CANARY_LAYOUT.parts(spec) : [{ path: '', value: spec }]),
};

/** The check types whose URL goes to a driver whole, with `$(password)` filled in its user part. */
const DRIVER_URL_TYPES = new Set(['postgres', 'mysql', 'redis', 'mongodb']);

/**
 * One check entry with the password of its URL moved to its password field, as canary-checker's fixtures write
 * `postgres://user:secret@host/db` and `https://user:secret@host/`: the field is then sealed like any password while
 * the URL, still showing user and host, stays the endpoint the dashboard shows. A driver URL keeps `$(password)` in
 * its place; an http(s) URL loses its user part to username and password, which the check sends as Basic auth, as Go
 * does with a URL's user part. An entry that already has a password field, or any other type, is left as written,
 * and its URL is refused (OD_URL_PASSWORD).
 */
function liftUrlPassword(type: string, entry: unknown): unknown {
  if (!isRecord(entry) || entry.password !== undefined || entry.authentication !== undefined) return entry;
  const field = (['url', 'connection'] as const).find((name) => typeof entry[name] === 'string');
  const text = field === undefined ? null : entry[field];
  if (field === undefined || typeof text !== 'string') return entry;
  const split = splitUrlPassword(text);
  if (split === null) return entry;
  if (DRIVER_URL_TYPES.has(type) && placeholderProblem(split.withPlaceholder) === null) {
    return { ...entry, [field]: split.withPlaceholder, password: split.password };
  }
  if (type === 'http' && field === 'url' && (split.scheme === 'http:' || split.scheme === 'https:') && entry.username === undefined) {
    return { ...entry, url: split.withoutUserPart, ...(split.username === '' ? {} : { username: split.username }), password: split.password };
  }
  return entry;
}

function liftUrlPasswords<T>(spec: T): T {
  if (!isRecord(spec)) return spec;
  const inner = typeof spec.kind === 'string' && isRecord(spec.spec) ? spec.spec : spec;
  let changed = false;
  const lifted = Object.fromEntries(
    Object.entries(inner).map(([type, list]) => {
      if (!Array.isArray(list)) return [type, list];
      return [
        type,
        list.map((entry: unknown) => {
          const next = liftUrlPassword(type, entry);
          if (next !== entry) changed = true;
          return next;
        }),
      ];
    }),
  );
  if (!changed) return spec;
  return (inner === spec ? lifted : { ...spec, spec: lifted }) as T;
}

/**
 * The write path: plaintext sealed for this canary, envelopes kept where they still open; one that does not open
 * where it now stands (its check's destination changed, or it was copied from elsewhere) is dropped, so the writer
 * must give that secret again. A URL's password moves to the password field first (liftUrlPassword); one that cannot
 * move, a credential in a URL's query, and an envelope of another key are a 400.
 */
export function sealCanarySpec<T>(key: Buffer, canaryId: string, spec: T): SealResult<T> {
  return sealSpecOrRefuse(key, CANARY_LAYOUT, canaryId, liftUrlPasswords(spec));
}

/** A check row written through the data API: sealed for the canary it belongs to. */
export function sealCheckSpec<T>(key: Buffer, canaryId: string, spec: T): SealResult<T> {
  return sealSpecOrRefuse(key, CHECK_LAYOUT, canaryId, spec);
}

/** The run path: every envelope opened for this check's canary and destination, just before a checker gets it. */
export function openCheckSpec(key: Buffer, canaryId: string, spec: Record<string, unknown>): Record<string, unknown> {
  return openSpec(key, CHECK_LAYOUT, canaryId, spec);
}

export interface StoredSecretsReport {
  canaries: number;
  checks: number;
  /** Values that stay as they are: a credential inside a URL, or an envelope this key cannot open. */
  problems: Array<SecretProblem & { table: 'canaries' | 'checks'; id: string }>;
}

async function sealTable(
  pool: pg.Pool,
  key: Buffer,
  table: 'canaries' | 'checks',
  report: StoredSecretsReport,
): Promise<string[]> {
  const owner = table === 'canaries' ? 'id' : 'canary_id';
  const layout = table === 'canaries' ? CANARY_LAYOUT : CHECK_LAYOUT;
  const rows = await pool.query<{ id: string; owner: string; spec: unknown }>(
    `select id, ${owner} as owner, spec from ${table} where deleted_at is null and spec is not null`,
  );
  const changed: string[] = [];
  for (const row of rows.rows) {
    const legacy = resealLegacy(key, layout, row.owner, row.spec);
    const sealed = sealSpec(key, layout, row.owner, legacy.spec);
    const problems = [...legacy.problems, ...sealed.problems.filter((problem) => problem.kind !== 'undecryptable')];
    report.problems.push(...problems.map((problem) => ({ ...problem, table, id: row.id })));
    if (legacy.sealed + sealed.sealed === 0) continue;
    // Compared with what was read, so an edit made meanwhile is never overwritten; that edit was sealed by its writer.
    const updated = await pool.query(`update ${table} set spec = $2 where id = $1 and spec = $3::jsonb`, [row.id, JSON.stringify(sealed.spec), JSON.stringify(row.spec)]);
    if ((updated.rowCount ?? 0) > 0) changed.push(row.id);
  }
  return changed;
}

/**
 * Seals what specs written before ADR 0041 hold in plaintext and binds the envelopes written before ADR 0062 to the
 * canary and destination where they are stored: canaries first, whose checks are then synced from the sealed spec,
 * then any check row that still holds plaintext or an unbound envelope (e.g. a spec that no longer validates).
 */
export async function sealStoredSpecSecrets(pool: pg.Pool, key: Buffer): Promise<StoredSecretsReport> {
  const report: StoredSecretsReport = { canaries: 0, checks: 0, problems: [] };
  const canaries = await sealTable(pool, key, 'canaries', report);
  for (const id of canaries) await syncCanaryChecks(pool, id, { reschedule: false });
  report.canaries = canaries.length;
  report.checks = (await sealTable(pool, key, 'checks', report)).length;
  return report;
}
