import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { LogLine } from '@opsdeck/shared';
import type { fileLogBackendSchema } from '@opsdeck/shared';
import type { z } from 'zod';
import { absolutePatterns, isInsideRoots, literalPart, realRoots, realTarget } from '../log-roots';
import { escapeGlob, renderLogTemplate } from '../log-templates';
import { parseLine, type ParseOptions } from './line-parser';
import { reverseLineBlocks } from './reverse-lines';
import { LogBackendError, newestFirst, searchPattern, type LogQuery, type LogResult } from './types';

export type FileLogBackendSpec = z.infer<typeof fileLogBackendSchema>;

/** Files one query reads at most: a glob that matches a whole tree must not open thousands of files. */
export const MAX_FILES = 64;

interface FoundFile {
  real: string;
  /** The path under its root, shown as the `file` label: the server's own folders are nobody's business. */
  label: string;
}

/** The files a backend's paths name for one subject: templates rendered, then every file's real path checked to be inside a root. */
export async function matchingLogFiles(spec: FileLogBackendSpec, query: Pick<LogQuery, 'subject'>, roots: readonly string[]): Promise<FoundFile[]> {
  const real = realRoots(roots);
  const found = new Map<string, FoundFile>();
  for (const [index, raw] of spec.paths.entries()) {
    const rendered = await renderLogTemplate(`spec.file.paths[${index}]`, raw, query.subject, escapeGlob);
    for (const candidate of absolutePatterns(rendered, real)) {
      // Checked again at every query: the save-time check saw the template, not what it renders to, and a root's
      // folders may have been replaced by symlinks since.
      const literal = literalPart(candidate.pattern);
      if (!isInsideRoots(literal, candidate.roots) || !isInsideRoots(realTarget(literal), candidate.roots)) continue;
      const files = await glob(candidate.pattern, { absolute: true, onlyFiles: true, followSymbolicLinks: true, expandDirectories: false, dot: false });
      for (const file of files.sort()) {
        let target: string;
        try {
          target = await realpath(file);
        } catch {
          continue;
        }
        const root = candidate.roots.find((entry) => isInsideRoots(target, [entry]));
        if (root === undefined || found.has(target)) continue;
        found.set(target, { real: target, label: path.relative(root, target) });
        if (found.size >= MAX_FILES) return [...found.values()];
      }
    }
  }
  return [...found.values()];
}

interface FileScan {
  lines: LogLine[];
  /** Matching lines seen, at most limit + 1: one more than asked tells that there are more. */
  matched: number;
  timedOut: boolean;
}

function toLogLine(text: string, id: string, options: ParseOptions, labels: Record<string, string>): { line: LogLine; time: number | null } {
  const parsed = parseLine(text, options);
  return {
    time: parsed.time,
    line: {
      id,
      timestamp: parsed.time === null ? null : new Date(parsed.time).toISOString(),
      message: parsed.message,
      labels: { ...labels, ...parsed.fields, ...(parsed.level === null ? {} : { level: parsed.level }) },
    },
  };
}

/** The start of each line of a block that holds a match of `pattern`, newest first, without splitting the block. */
function matchingLineStarts(text: string, pattern: RegExp): number[] {
  const starts: number[] = [];
  const global = new RegExp(pattern.source, 'gi');
  let match: RegExpExecArray | null;
  while ((match = global.exec(text)) !== null) {
    const start = text.lastIndexOf('\n', match.index) + 1;
    if (starts[starts.length - 1] !== start) starts.push(start);
    // On to the next line: a second match in the same line is the same line.
    const end = text.indexOf('\n', match.index);
    if (end === -1) break;
    global.lastIndex = end + 1;
  }
  return starts.reverse();
}

/** The time of a block's first lines that carry one (a stack trace's lines do not), or null. */
function oldestTime(text: string, options: ParseOptions): number | null {
  let start = 0;
  for (let tries = 0; tries < 8 && start < text.length; tries += 1) {
    const time = parseLine(lineAt(text, start), options).time;
    if (time !== null) return time;
    const next = text.indexOf('\n', start);
    if (next === -1) return null;
    start = next + 1;
  }
  return null;
}

function lineAt(text: string, start: number): string {
  const end = text.indexOf('\n', start);
  const line = text.slice(start, end === -1 ? text.length : end);
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * Reads one file from its end. A block whose oldest line is inside the time range is searched as one string (the
 * matches found first, lines cut out around them); the block where the range starts is read line by line, and the
 * scan stops at the first line older than `start`: files are written in time order.
 */
async function scanFile(file: FoundFile, ordinal: number, spec: FileLogBackendSpec, query: LogQuery, deadline: number): Promise<FileScan> {
  const options: ParseOptions = { format: spec.format ?? 'auto', timestampField: spec.timestampField, messageField: spec.messageField };
  const labels = { ...(spec.labels ?? {}), file: file.label };
  const pattern = searchPattern(query.search);
  const startMs = query.start.getTime();
  const endMs = query.end.getTime();
  const wanted = query.limit + 1;
  const scan: FileScan = { lines: [], matched: 0, timedOut: false };
  const handle = await open(file.real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return scan;
    const take = (text: string, offset: string): 'stop' | 'go' => {
      const { line, time } = toLogLine(text, `${ordinal}:${offset}`, options, labels);
      if (time !== null && time < startMs) return 'stop';
      if (time !== null && time > endMs) return 'go';
      scan.matched += 1;
      if (scan.lines.length < query.limit) scan.lines.push(line);
      return scan.matched >= wanted ? 'stop' : 'go';
    };
    for await (const block of reverseLineBlocks(handle, stat.size)) {
      if (Date.now() > deadline || query.signal.aborted) {
        scan.timedOut = true;
        break;
      }
      const oldest = oldestTime(block.text, options);
      const wholeBlockInRange = oldest !== null && oldest >= startMs;
      let outcome: 'stop' | 'go' = 'go';
      if (pattern !== null && wholeBlockInRange) {
        for (const start of matchingLineStarts(block.text, pattern)) {
          const text = lineAt(block.text, start);
          outcome = take(text, `${block.offset}.${start}`);
          if (outcome === 'stop') break;
        }
      } else {
        let end = block.text.length;
        while (end > 0 && outcome === 'go') {
          const start = block.text.lastIndexOf('\n', end - 1) + 1;
          const text = lineAt(block.text, start);
          end = start - 1;
          if (text === '') continue;
          if (pattern !== null && !pattern.test(text)) {
            // Only the time decides whether to go on; a non-matching line is parsed just for that when near the start.
            if (wholeBlockInRange) continue;
            const time = parseLine(text, options).time;
            if (time !== null && time < startMs) outcome = 'stop';
            continue;
          }
          outcome = take(text, `${block.offset}.${start}`);
        }
      }
      if (outcome === 'stop') break;
    }
  } finally {
    await handle.close();
  }
  return scan;
}

/**
 * Reads the files a backend names for one subject, each from its end, within one deadline; a line's id is its file's
 * ordinal and where its block starts, stable within one answer.
 */
export async function queryFileBackend(spec: FileLogBackendSpec, query: LogQuery, roots: readonly string[], timeoutMs: number): Promise<LogResult> {
  if (roots.length === 0) throw new LogBackendError('this server reads no log files (OPSDECK_LOG_ROOTS is empty)');
  const deadline = Date.now() + timeoutMs;
  const files = await matchingLogFiles(spec, query, roots);
  let total = 0;
  let truncated = false;
  const lines: LogLine[] = [];
  for (const [ordinal, file] of files.entries()) {
    let scan: FileScan;
    try {
      scan = await scanFile(file, ordinal, spec, query, deadline);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // A file rotated away between the glob and the open is simply gone; a symlink swapped in is refused by O_NOFOLLOW.
      if (code === 'ENOENT') continue;
      throw new LogBackendError(`${file.label} cannot be read${typeof code === 'string' ? ` (${code})` : ''}`);
    }
    total += scan.matched;
    lines.push(...scan.lines);
    if (scan.matched > query.limit || scan.timedOut) truncated = true;
  }
  const sorted = newestFirst(lines);
  if (sorted.length > query.limit) truncated = true;
  return { lines: sorted.slice(0, query.limit), total, truncated };
}
