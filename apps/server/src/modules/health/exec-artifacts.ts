import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { segmentPattern, splitGlob } from './checkers/folder-checker-glob';

/**
 * The files an exec check or exec playbook action keeps (`artifacts: [{path}]`, as canary-checker and Mission Control
 * write it; ADR 0087). The script runs as the sandbox user, and the server that collects runs as root, so a path is
 * a way to make the server read a file: only a regular file the sandbox user owns and wrote during this run is kept,
 * opened without following a symbolic link. Whatever such a file holds, the script could have printed, so keeping it
 * reveals nothing more; stored secrets the run opened are scrubbed from it as from its output.
 */

export const ARTIFACT_LIMITS = {
  /** Files kept per run. */
  files: 20,
  /** Bytes of one file. */
  fileBytes: 5 * 1024 * 1024,
  /** Bytes of all the files of one run. */
  totalBytes: 10 * 1024 * 1024,
  /** Directory entries looked at while expanding the patterns. */
  entries: 10_000,
} as const;

export interface CollectedArtifact {
  /** The file's path: relative to where the script started when it is below it (that folder is a random temporary one), else absolute. */
  path: string;
  size: number;
  /** sha256 of the kept content, hex. */
  checksum: string;
  content: Buffer;
}

export interface ArtifactCollection {
  artifacts: CollectedArtifact[];
  /** What was not kept and why, one sentence each: shown with the result, never dropped silently. */
  notes: string[];
}

export interface ArtifactOwner {
  uid: number;
  /** When the run started (ms since the epoch): a file last written before it is not the run's. */
  since: number;
  /** What the script printed: `/dev/stdout` and `/dev/stderr` name these, as in canary-checker. */
  output: { stdout: string; stderr: string };
}

const STREAMS: Readonly<Record<string, 'stdout' | 'stderr'>> = { '/dev/stdout': 'stdout', '/dev/stderr': 'stderr' };

const REDACTED = Buffer.from('[REDACTED]');

/** The content with every occurrence of each secret's UTF-8 bytes replaced, text or binary alike. */
export function scrubBuffer(content: Buffer, secrets: readonly string[]): Buffer {
  let out = content;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    const needle = Buffer.from(secret, 'utf8');
    let at = out.indexOf(needle);
    if (at === -1) continue;
    const parts: Buffer[] = [];
    let from = 0;
    while (at !== -1) {
      parts.push(out.subarray(from, at), REDACTED);
      from = at + needle.length;
      at = out.indexOf(needle, from);
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}

interface Walk {
  entries: number;
  found: string[];
}

/** The paths under `folder` matching the pattern segments; `**` stands for any number of folders. Never follows links. */
async function expand(folder: string, segments: readonly string[], walk: Walk): Promise<void> {
  const [head, ...rest] = segments;
  if (head === undefined) {
    walk.found.push(folder);
    return;
  }
  if (head === '**') await expand(folder, rest, walk);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  const pattern = head === '**' ? null : segmentPattern(head);
  for (const name of names.sort()) {
    walk.entries += 1;
    if (walk.entries > ARTIFACT_LIMITS.entries) return;
    const child = path.join(folder, name);
    if (pattern !== null) {
      if (!pattern.test(name)) continue;
      if (rest.length === 0) {
        walk.found.push(child);
        continue;
      }
    }
    const info = await lstat(child).catch(() => null);
    if (info?.isDirectory() !== true) continue;
    await expand(child, head === '**' ? segments : rest, walk);
  }
}

/**
 * Why the file may not be kept, or its content (read through one descriptor opened without following a link). A
 * `foreign` file is not one the script wrote during this run: its name is the server's business, not the result's.
 */
async function readOwned(file: string, owner: ArtifactOwner): Promise<{ content: Buffer } | { skip: string; foreign: boolean }> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { skip: code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENOENT' ? 'it does not exist' : `it could not be opened (${code ?? 'error'})`, foreign: true };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { skip: 'it is not a regular file', foreign: true };
    if (info.uid !== owner.uid) return { skip: "the script's user does not own it", foreign: true };
    if (info.mtimeMs < owner.since - 1000) return { skip: 'the script did not write it during this run', foreign: true };
    if (info.size > ARTIFACT_LIMITS.fileBytes) return { skip: `it is ${info.size} bytes, over the ${ARTIFACT_LIMITS.fileBytes} kept of one file`, foreign: false };
    const content = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(content, 0, info.size, 0);
    return { content: content.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}

/**
 * The files the patterns name (relative ones under `cwd`, where the script started), each checked and read as above,
 * within ARTIFACT_LIMITS; a pattern that matches nothing and a file that is not kept each leave a note.
 */
export async function collectArtifacts(patterns: readonly string[], cwd: string, owner: ArtifactOwner, secrets: readonly string[]): Promise<ArtifactCollection> {
  const artifacts: CollectedArtifact[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  const shown = (file: string): string => {
    const relative = path.relative(cwd, file);
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
  };
  const keep = (file: string, raw: Buffer): void => {
    const content = scrubBuffer(raw, secrets);
    if (total + content.length > ARTIFACT_LIMITS.totalBytes) {
      notes.push(`${shown(file)}: not kept, ${ARTIFACT_LIMITS.totalBytes} bytes are kept of one run`);
      return;
    }
    total += content.length;
    artifacts.push({ path: shown(file), size: content.length, checksum: createHash('sha256').update(content).digest('hex'), content });
  };
  for (const pattern of patterns) {
    const stream = STREAMS[pattern.trim()];
    if (stream !== undefined) {
      keep(pattern.trim(), Buffer.from(owner.output[stream], 'utf8'));
      continue;
    }
    const absolute = path.resolve(cwd, pattern);
    const { base, segments } = splitGlob(absolute);
    const walk: Walk = { entries: 0, found: [] };
    if (segments.length === 0) walk.found.push(base);
    else await expand(base, segments, walk);
    if (walk.entries > ARTIFACT_LIMITS.entries) notes.push(`${pattern}: stopped after looking at ${ARTIFACT_LIMITS.entries} entries`);
    if (walk.found.length === 0) notes.push(`${pattern}: no file matches`);
    // A glob walks folders as the server: the names it finds of files the script did not write are counted, never
    // listed, so a pattern cannot list a folder the script's user could not read. A path written whole is named.
    let unlisted = 0;
    for (const file of walk.found) {
      if (seen.has(file)) continue;
      seen.add(file);
      if (artifacts.length >= ARTIFACT_LIMITS.files) {
        notes.push(`${shown(file)}: not kept, ${ARTIFACT_LIMITS.files} files are kept of one run`);
        continue;
      }
      const read = await readOwned(file, owner);
      if (!('skip' in read)) keep(file, read.content);
      else if (read.foreign && segments.length > 0) unlisted += 1;
      else notes.push(`${shown(file)}: not kept, ${read.skip}`);
    }
    if (unlisted > 0) notes.push(`${pattern}: ${unlisted} matching ${unlisted === 1 ? 'entry was' : 'entries were'} not kept: only regular files the script wrote during this run are`);
  }
  return { artifacts, notes };
}

/** The artifact with the run's secrets scrubbed from its content, and its size and checksum made again. */
export function scrubArtifact(artifact: CollectedArtifact, secrets: readonly string[]): CollectedArtifact {
  const content = scrubBuffer(artifact.content, secrets);
  if (content === artifact.content) return artifact;
  return { ...artifact, content, size: content.length, checksum: createHash('sha256').update(content).digest('hex') };
}
