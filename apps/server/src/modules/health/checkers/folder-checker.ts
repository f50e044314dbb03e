import { opendir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { parseDurationMs, parseSizeBytes, type FolderCheckSpec } from '@opsdeck/shared';
import { failed, type CheckerContext, type CheckOutcome } from './checker';
import { segmentPattern, splitGlob } from './folder-checker-glob';
import { listS3, S3ListingError, s3Endpoint, type S3Access, type S3Credentials } from './s3-listing';
import { SftpFolderError, withSftpFolders, type SftpAccess } from './sftp-folders';
import { renderCheckTemplate } from '../check-template';
import { isAwsEndpoint, originOf } from '../../connections';

/** A walk reads at most this many directory entries, so one huge tree cannot stall a worker; the result says so. */
export const MAX_ENTRIES = 10_000;

interface FileInfo {
  /** Relative to the folder (or the glob's fixed base) for a recursive or glob listing; the bare name otherwise. */
  name: string;
  size: number;
  modified: Date;
  mode: number;
  isDir: boolean;
}

interface Listing {
  files: FileInfo[];
  truncated: boolean;
  /** The folder itself, for an empty listing (canary-checker then reports the folder's own age). */
  folder: FileInfo | null;
  /** The path names nothing: as in canary-checker that is no files (minCount catches it), and the message says so. */
  missing: boolean;
}

function ms(value: string | number | undefined): number | undefined {
  return value === undefined ? undefined : (parseDurationMs(value) ?? undefined);
}

function bytes(value: string | number | undefined): number | undefined {
  return value === undefined ? undefined : (parseSizeBytes(value) ?? undefined);
}

function formatAge(ageMs: number): string {
  if (ageMs < 60_000) return `${Math.round(ageMs / 1000)}s`;
  if (ageMs < 3_600_000) return `${Math.round(ageMs / 60_000)}m`;
  if (ageMs < 86_400_000) return `${Math.round(ageMs / 3_600_000)}h`;
  return `${Math.round(ageMs / 86_400_000)}d`;
}

/** One entry of a folder as a reader sees it, wherever the folder is. */
export interface FolderEntry {
  name: string;
  full: string;
  size: number;
  modified: Date;
  mode: number;
  isDir: boolean;
  isFile: boolean;
}

/** The two operations a folder walk needs, on this host or on an SFTP server. */
export interface FolderReader {
  /** The entries of a folder; none when it cannot be read. `limit` is how many more may be read at most. */
  entries(folder: string, limit: number): Promise<{ entries: FolderEntry[]; more: boolean }>;
  stat(target: string): Promise<FolderEntry | null>;
  join(...parts: string[]): string;
}

function entryOf(name: string, full: string, stats: Stats): FolderEntry {
  return { name, full, size: stats.size, modified: stats.mtime, mode: stats.mode, isDir: stats.isDirectory(), isFile: stats.isFile() };
}

/** This host's file system. */
export const localFolders: FolderReader = {
  async entries(folder, limit) {
    const dir = await opendir(folder).catch(() => null);
    if (dir === null) return { entries: [], more: false };
    const entries: FolderEntry[] = [];
    let more = false;
    for await (const entry of dir) {
      if (entries.length >= limit) {
        more = true;
        break;
      }
      const full = path.join(folder, entry.name);
      // Symbolic links are followed by stat, as a listing of the folder shows them; a dangling one is skipped.
      const stats = await stat(full).catch(() => null);
      if (stats !== null) entries.push(entryOf(entry.name, full, stats));
    }
    if (more) await dir.close().catch(() => undefined);
    return { entries, more };
  },
  async stat(target) {
    const stats = await stat(target).catch(() => null);
    return stats === null ? null : entryOf(path.basename(target), target, stats);
  },
  join: (...parts) => path.join(...parts),
};

function infoOf(name: string, entry: FolderEntry): FileInfo {
  return { name, size: entry.size, modified: entry.modified, mode: entry.mode, isDir: entry.isDir };
}

interface Walk {
  reader: FolderReader;
  files: FileInfo[];
  entries: number;
  truncated: boolean;
}

async function readEntries(folder: string, walk: Walk): Promise<FolderEntry[]> {
  if (walk.entries >= MAX_ENTRIES) {
    walk.truncated = true;
    return [];
  }
  const { entries, more } = await walk.reader.entries(folder, MAX_ENTRIES - walk.entries);
  walk.entries += entries.length;
  if (more) walk.truncated = true;
  return entries;
}

/** Files under `folder` matching the pattern segments (`**` is any number of folders, none included). */
async function walkGlob(folder: string, relative: string, segments: readonly string[], walk: Walk, depth: number): Promise<void> {
  const [segment, ...rest] = segments;
  if (segment === undefined || walk.truncated || depth > 64) return;
  if (segment === '**') {
    await walkGlob(folder, relative, rest, walk, depth + 1);
    for (const entry of await readEntries(folder, walk)) {
      if (entry.isDir) await walkGlob(entry.full, walk.reader.join(relative, entry.name), segments, walk, depth + 1);
    }
    return;
  }
  const pattern = segmentPattern(segment);
  for (const entry of await readEntries(folder, walk)) {
    if (!pattern.test(entry.name)) continue;
    const name = walk.reader.join(relative, entry.name);
    if (rest.length === 0) {
      if (entry.isFile) walk.files.push(infoOf(name, entry));
    } else if (entry.isDir) await walkGlob(entry.full, name, rest, walk, depth + 1);
  }
}

/** Every file below `folder` (recursive), named by its path relative to it. */
async function walkAll(folder: string, relative: string, recursive: boolean, walk: Walk, depth: number): Promise<void> {
  for (const entry of await readEntries(folder, walk)) {
    const name = recursive ? walk.reader.join(relative, entry.name) : entry.name;
    if (entry.isFile) walk.files.push(infoOf(name, entry));
    else if (recursive && entry.isDir && depth < 64 && !walk.truncated) await walkAll(entry.full, name, recursive, walk, depth + 1);
  }
}

/** The files `path` names: a folder's files (all below it with `recursive`), or those a glob matches. */
export async function listFolder(pattern: string, recursive: boolean, reader: FolderReader = localFolders): Promise<Listing> {
  const walk: Walk = { reader, files: [], entries: 0, truncated: false };
  const { base, segments } = splitGlob(pattern);
  if (segments.length > 0) {
    await walkGlob(base, '', segments, walk, 0);
    return { files: walk.files, truncated: walk.truncated, folder: null, missing: false };
  }
  const info = await reader.stat(pattern);
  // As canary-checker: a folder that does not exist holds no files (minCount is what catches it).
  if (info === null) return { files: [], truncated: false, folder: null, missing: true };
  if (!info.isDir) return { files: [infoOf(info.name, info)], truncated: false, folder: null, missing: false };
  await walkAll(pattern, '', recursive, walk, 0);
  return { files: walk.files, truncated: walk.truncated, folder: infoOf(info.name, info), missing: false };
}

/** Where a folder check's S3 credentials may not go: a connection's keys sign for its own endpoint only. */
class S3AccessError extends Error {}

/** The endpoint, region and keys an s3:// folder check lists its bucket with (ADR 0075 for valueFrom keys). */
async function s3Access(spec: FolderCheckSpec, context: CheckerContext): Promise<S3Access> {
  const aws = spec.awsConnection ?? {};
  let region = aws.region;
  let endpoint = aws.endpoint;
  let credentials: S3Credentials | null = null;
  let insecure = aws.skipTLSVerify === true;
  if (aws.connection !== undefined) {
    const connection = await context.resolveConnection(aws.connection);
    if (connection.type !== 'aws' && connection.type !== 's3') throw new S3AccessError(`connection '${aws.connection}' is of type ${connection.type}, not aws or s3`);
    region ??= connection.properties.region;
    const own = originOf(connection.url);
    if (own !== null && endpoint !== undefined && originOf(endpoint) !== own) {
      throw new S3AccessError(`awsConnection.endpoint ${endpoint} is not the endpoint of connection '${aws.connection}' (${own}): its keys sign for it alone`);
    }
    if (own === null && endpoint !== undefined && !isAwsEndpoint(endpoint)) {
      throw new S3AccessError(`connection '${aws.connection}' holds AWS keys, which sign for AWS endpoints only, not ${endpoint}`);
    }
    endpoint ??= own ?? undefined;
    insecure ||= connection.insecureTls;
    if (connection.username !== null && connection.password !== null) credentials = { accessKey: connection.username, secretKey: connection.password };
  } else if (typeof aws.accessKey === 'string' && typeof aws.secretKey === 'string' && aws.accessKey !== '') {
    credentials = { accessKey: aws.accessKey, secretKey: aws.secretKey, ...(aws.sessionToken === undefined || aws.sessionToken === '' ? {} : { sessionToken: aws.sessionToken }) };
  }
  const resolvedRegion = region ?? 'us-east-1';
  return {
    endpoint: endpoint ?? s3Endpoint(resolvedRegion),
    region: resolvedRegion,
    pathStyle: aws.usePathStyle === true,
    credentials,
    insecure,
  };
}

async function listBucket(spec: FolderCheckSpec, context: CheckerContext): Promise<Listing> {
  const listing = await listS3(await s3Access(spec, context), spec.path, MAX_ENTRIES, context.signal);
  return {
    files: listing.objects.map((object) => ({ name: object.name, size: object.size, modified: object.modified, mode: 0o644, isDir: false })),
    truncated: listing.truncated,
    folder: null,
    missing: false,
  };
}

/** A stored sftp connection's host and port: its URL is a bare host, host:port or sftp://host[:port]. */
function sftpHostOf(url: string | null, propertyPort: string | undefined): { host: string; port: number } | null {
  if (url === null || url.trim() === '') return null;
  const text = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `sftp://${text}`);
  } catch {
    return null;
  }
  if (parsed.hostname === '') return null;
  const port = Number(parsed.port !== '' ? parsed.port : (propertyPort ?? '22'));
  return { host: parsed.hostname, port: Number.isInteger(port) && port > 0 ? port : 22 };
}

/** The server, user and password an SFTP folder check logs in with: a stored sftp connection's, or the spec's own. */
async function sftpAccess(spec: FolderCheckSpec, context: CheckerContext): Promise<SftpAccess> {
  const sftp = spec.sftpConnection ?? {};
  const port = sftp.port === undefined ? undefined : Number(sftp.port);
  if (sftp.connection !== undefined) {
    const connection = await context.resolveConnection(sftp.connection);
    if (connection.type !== 'sftp') throw new SftpFolderError(`connection '${sftp.connection}' is of type ${connection.type}, not sftp`);
    const own = sftpHostOf(connection.url, connection.properties.port);
    if (own === null) throw new SftpFolderError(`connection '${sftp.connection}' has no host`);
    // Its password goes to its own server only.
    if ((sftp.host !== undefined && sftp.host.toLowerCase() !== own.host.toLowerCase()) || (port !== undefined && port !== own.port)) {
      throw new SftpFolderError(`sftpConnection.host ${sftp.host ?? own.host}:${port ?? own.port} is not the server of connection '${sftp.connection}' (${own.host}:${own.port}): its password goes there alone`);
    }
    return { ...own, username: connection.username ?? '', password: connection.password };
  }
  if (sftp.host === undefined) throw new SftpFolderError('sftpConnection needs a host or a connection');
  return { host: sftp.host, port: port ?? 22, username: sftp.username ?? '', password: sftp.password === undefined || sftp.password === '' ? null : sftp.password };
}

/** A file as canary-checker's folder results list it (the json names of its File). */
function fileResult(file: FileInfo): Record<string, unknown> {
  return { name: file.name, size: file.size, mode: (file.mode & 0o777).toString(8).padStart(4, '0'), modified: file.modified, is_dir: file.isDir };
}

function extreme(files: readonly FileInfo[], better: (a: FileInfo, b: FileInfo) => boolean): FileInfo | null {
  return files.reduce<FileInfo | null>((best, file) => (best === null || better(file, best) ? file : best), null);
}

const DATE_MATH_UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `now`, `now-60d`, `now-1d/d` (date math as canary-checker's datemath reads it; M and y are calendar months and years). */
function dateMath(text: string, now: number): number | null {
  const match = /^now((?:[+-]\d+[smhdwMy])*)(?:\/([smhdwMy]))?$/.exec(text);
  if (match === null) return null;
  const at = new Date(now);
  for (const [, sign, amount, unit] of (match[1] ?? '').matchAll(/([+-])(\d+)([smhdwMy])/g)) {
    const n = Number(amount) * (sign === '-' ? -1 : 1);
    if (unit === 'M') at.setUTCMonth(at.getUTCMonth() + n);
    else if (unit === 'y') at.setUTCFullYear(at.getUTCFullYear() + n);
    else at.setTime(at.getTime() + n * (DATE_MATH_UNITS[unit ?? 's'] ?? 1000));
  }
  switch (match[2]) {
    case 'y':
      at.setUTCMonth(0, 1);
      at.setUTCHours(0, 0, 0, 0);
      break;
    case 'M':
      at.setUTCDate(1);
      at.setUTCHours(0, 0, 0, 0);
      break;
    case 'w':
      at.setUTCHours(0, 0, 0, 0);
      at.setUTCDate(at.getUTCDate() - ((at.getUTCDay() + 6) % 7));
      break;
    case 'd':
      at.setUTCHours(0, 0, 0, 0);
      break;
    case 'h':
      at.setUTCMinutes(0, 0, 0);
      break;
    case 'm':
      at.setUTCSeconds(0, 0);
      break;
    case 's':
      at.setUTCMilliseconds(0);
      break;
  }
  return at.getTime();
}

/**
 * canary-checker's `filter.since`: rendered as a Go template first (it usually reads the previous run, `{{
 * last_result.results.max }}`), then an RFC 3339 time (UTC when it has no zone) or date math; the files counted are
 * those changed from one second after it. A value that reads as neither fails the check naming it.
 */
function sinceOf(spec: FolderCheckSpec, context: CheckerContext, now: number): number | null | { error: string } {
  const raw = spec.filter?.since;
  if (raw === undefined || raw.trim() === '') return null;
  let text = raw;
  if (raw.includes('{{')) {
    try {
      text = renderCheckTemplate(raw, { canary: context.identity?.canary ?? {}, check: context.identity?.check ?? {} }, context.lastResult);
    } catch (error) {
      return { error: `failed to template filter.since: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  text = text.trim();
  let at: number | null = null;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) {
    const parsed = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`);
    at = Number.isNaN(parsed) ? null : parsed;
  } else at = dateMath(text, now);
  if (at === null) return { error: `could not parse filter.since: '${text}' is neither an RFC 3339 time nor date math such as now-60d` };
  return at + 1000;
}

/** canary-checker's folder filter: which files count at all. */
function passesFilter(file: FileInfo, filter: NonNullable<FolderCheckSpec['filter']>, regex: RegExp | null, now: number, since: number | null): boolean {
  if (since !== null && file.modified.getTime() < since) return false;
  const age = now - file.modified.getTime();
  const minAge = ms(filter.minAge);
  const maxAge = ms(filter.maxAge);
  const minSize = bytes(filter.minSize);
  const maxSize = bytes(filter.maxSize);
  if (minAge !== undefined && age < minAge) return false;
  if (maxAge !== undefined && age > maxAge) return false;
  if (minSize !== undefined && file.size < minSize) return false;
  if (maxSize !== undefined && file.size > maxSize) return false;
  return regex === null || regex.test(path.basename(file.name));
}

/** The first rule the files break, in canary-checker's order and words; null when none. */
function firstProblem(spec: FolderCheckSpec, files: readonly FileInfo[], now: number): string | null {
  const count = files.length;
  if (spec.minCount !== undefined && count < spec.minCount) return `too few files ${count} < ${spec.minCount}`;
  if (spec.maxCount !== undefined && count > spec.maxCount) return `too many files ${count} > ${spec.maxCount}`;
  const newest = extreme(files, (a, b) => a.modified > b.modified);
  const oldest = extreme(files, (a, b) => a.modified < b.modified);
  const smallest = extreme(files, (a, b) => a.size < b.size);
  const largest = extreme(files, (a, b) => a.size > b.size);
  if (newest === null || oldest === null || smallest === null || largest === null) return null;
  const minAge = ms(spec.minAge);
  const maxAge = ms(spec.maxAge);
  const minSize = bytes(spec.minSize);
  const maxSize = bytes(spec.maxSize);
  const newestAge = now - newest.modified.getTime();
  const oldestAge = now - oldest.modified.getTime();
  if (minAge !== undefined && newestAge < minAge) return `${newest.name} is too new: ${formatAge(newestAge)} < ${String(spec.minAge)}`;
  if (maxAge !== undefined && oldestAge > maxAge) return `${oldest.name} is too old ${formatAge(oldestAge)} > ${String(spec.maxAge)}`;
  if (minSize !== undefined && smallest.size < minSize) return `${smallest.name} is too small: ${smallest.size} < ${String(spec.minSize)}`;
  if (maxSize !== undefined && largest.size > maxSize) return `${largest.name} is too large: ${largest.size} > ${String(spec.maxSize)}`;
  return null;
}

/**
 * A local folder check as canary-checker runs it: `path` is a folder (its files; all below it with `recursive`) or a
 * glob (`/var/backups/*.gz`, `/srv/**\/*.log`); `filter` (regex on the file name, minAge, maxAge, minSize, maxSize)
 * picks the files that count; then minCount and maxCount on their number, minAge on the newest, maxAge on the
 * oldest, minSize on the smallest and maxSize on the largest.
 */
export async function runFolderCheck(spec: FolderCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const recursive = (spec as { recursive?: unknown }).recursive === true;
  let listing: Listing;
  try {
    if (spec.path.toLowerCase().startsWith('s3://')) listing = await listBucket(spec, context);
    else if (spec.sftpConnection !== undefined) {
      listing = await withSftpFolders(await sftpAccess(spec, context), context.timeoutMs, context.signal, (reader) => listFolder(spec.path, recursive, reader));
    } else listing = await listFolder(spec.path, recursive);
  } catch (error) {
    if (error instanceof S3ListingError || error instanceof S3AccessError || error instanceof SftpFolderError) return failed(error.message);
    throw error;
  }
  const filter = spec.filter ?? {};
  let regex: RegExp | null = null;
  try {
    regex = filter.regex === undefined ? null : new RegExp(filter.regex);
  } catch (error) {
    return failed(`invalid filter.regex: ${error instanceof Error ? error.message : String(error)}`);
  }
  const now = Date.now();
  const since = sinceOf(spec, context, now);
  if (since !== null && typeof since === 'object') return failed(since.error);
  const files = listing.files.filter((file) => passesFilter(file, filter, regex, now, since));
  const newest = extreme(files, (a, b) => a.modified > b.modified) ?? listing.folder;
  const oldest = extreme(files, (a, b) => a.modified < b.modified) ?? listing.folder;
  const smallest = extreme(files, (a, b) => a.size < b.size);
  const largest = extreme(files, (a, b) => a.size > b.size);
  const totalSize = files.reduce((sum, file) => sum + file.size, 0);
  const data = {
    results: {
      files: files.map(fileResult),
      oldest: oldest === null ? null : fileResult(oldest),
      newest: newest === null ? null : fileResult(newest),
      smallest: smallest === null ? null : fileResult(smallest),
      largest: largest === null ? null : fileResult(largest),
      size: totalSize,
    },
  };
  const details = {
    count: files.length,
    newest: newest?.name ?? null,
    newestAgeMs: newest === null ? null : Math.round(now - newest.modified.getTime()),
    smallest: smallest?.size ?? null,
    largest: largest?.size ?? null,
    totalSize,
    ...(listing.truncated ? { truncated: `only the first ${MAX_ENTRIES} entries were read` } : {}),
  };
  const counted = `${files.length} ${files.length === 1 ? 'file' : 'files'}`;
  const summary = listing.missing
    ? `${counted}: ${spec.path} does not exist`
    : `${counted}${newest === null || files.length === 0 ? '' : `, newest ${newest.name} (${formatAge(now - newest.modified.getTime())} old)`}`;
  const problem = firstProblem(spec, files, now);
  if (problem !== null) return { ...failed(`${summary}; ${problem}`, details), data };
  return { pass: true, message: listing.truncated ? `${summary} (the first ${MAX_ENTRIES} entries read)` : summary, details, data };
}
