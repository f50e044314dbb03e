import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseDurationMs, parseSizeBytes, type FolderCheckSpec } from '@opsdeck/shared';
import { failed, type CheckOutcome } from './checker';

/** A folder with more entries than this is judged on the first ones, so one huge folder cannot stall a worker. */
const MAX_ENTRIES = 10_000;

interface FileInfo {
  name: string;
  size: number;
  ageMs: number;
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

/**
 * Files directly in `path` that pass `filter`, then the rules: minCount/maxCount on their number, minAge/maxAge on
 * the newest file's age (a backup folder whose newest file is too old is stale), minSize on the smallest file and
 * maxSize on the largest.
 */
export async function runFolderCheck(spec: FolderCheckSpec): Promise<CheckOutcome> {
  const folder = spec.path;
  const info = await stat(folder).catch(() => null);
  if (info === null) return failed(`${folder} does not exist`);
  if (!info.isDirectory()) return failed(`${folder} is not a directory`);
  const filter = spec.filter ?? {};
  const regex = filter.regex === undefined ? null : new RegExp(filter.regex);
  const now = Date.now();
  const files: FileInfo[] = [];
  let scanned = 0;
  const dir = await opendir(folder);
  for await (const entry of dir) {
    if (scanned >= MAX_ENTRIES) break;
    scanned += 1;
    if (!entry.isFile()) continue;
    if (regex !== null && !regex.test(entry.name)) continue;
    const fileStat = await stat(path.join(folder, entry.name)).catch(() => null);
    if (fileStat === null) continue;
    const file = { name: entry.name, size: fileStat.size, ageMs: now - fileStat.mtimeMs };
    const f = { minAge: ms(filter.minAge), maxAge: ms(filter.maxAge), minSize: bytes(filter.minSize), maxSize: bytes(filter.maxSize) };
    if (f.minAge !== undefined && file.ageMs < f.minAge) continue;
    if (f.maxAge !== undefined && file.ageMs > f.maxAge) continue;
    if (f.minSize !== undefined && file.size < f.minSize) continue;
    if (f.maxSize !== undefined && file.size > f.maxSize) continue;
    files.push(file);
  }
  const newest = files.reduce<FileInfo | null>((best, file) => (best === null || file.ageMs < best.ageMs ? file : best), null);
  const smallest = files.reduce<number | null>((min, file) => (min === null || file.size < min ? file.size : min), null);
  const largest = files.reduce<number | null>((max, file) => (max === null || file.size > max ? file.size : max), null);
  const details = {
    count: files.length,
    newest: newest?.name ?? null,
    newestAgeMs: newest === null ? null : Math.round(newest.ageMs),
    smallest,
    largest,
    totalSize: files.reduce((sum, file) => sum + file.size, 0),
  };
  const summary = `${files.length} ${files.length === 1 ? 'file' : 'files'}${newest === null ? '' : `, newest ${newest.name} (${formatAge(newest.ageMs)} old)`}`;
  const problems: string[] = [];
  if (spec.minCount !== undefined && files.length < spec.minCount) problems.push(`expected at least ${spec.minCount} files`);
  if (spec.maxCount !== undefined && files.length > spec.maxCount) problems.push(`expected at most ${spec.maxCount} files`);
  const maxAge = ms(spec.maxAge);
  const minAge = ms(spec.minAge);
  if (maxAge !== undefined && (newest === null || newest.ageMs > maxAge)) problems.push(`the newest file must be younger than ${String(spec.maxAge)}`);
  if (minAge !== undefined && newest !== null && newest.ageMs < minAge) problems.push(`the newest file must be older than ${String(spec.minAge)}`);
  const minSize = bytes(spec.minSize);
  const maxSize = bytes(spec.maxSize);
  if (minSize !== undefined && (smallest === null || smallest < minSize)) problems.push(`every file must be at least ${String(spec.minSize)}`);
  if (maxSize !== undefined && largest !== null && largest > maxSize) problems.push(`every file must be at most ${String(spec.maxSize)}`);
  if (problems.length > 0) return failed(`${summary}; ${problems.join('; ')}`, details);
  return { pass: true, message: summary, details };
}
