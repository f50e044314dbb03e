import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { glob } from 'tinyglobby';
import type { SourceContext, SourceEntry, SourceRunner } from '../types';
import { ItemCollector, messageOf, parseDocuments } from './extract';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const GLOB_CHARS = /[*?[\]{}()!+@]/;

function patternsOf(spec: Record<string, unknown>): string[] {
  const raw = spec.paths;
  if (typeof raw === 'string') return [raw];
  return Array.isArray(raw) ? raw.filter((value): value is string => typeof value === 'string' && value !== '') : [];
}

export function isUnder(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const relative = path.relative(root, file);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
}

/** The folder a glob cannot leave: its leading segments without glob characters. */
export function staticBase(pattern: string): string {
  const segments = pattern.split('/');
  const index = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  const fixed = index === -1 ? segments.slice(0, -1) : segments.slice(0, index);
  return path.resolve('/', ...fixed);
}

/** A relative glob is looked for under every root; an absolute one only when it starts inside a root. */
function absolutePatterns(pattern: string, roots: readonly string[]): string[] {
  if (path.isAbsolute(pattern)) return [path.normalize(pattern)];
  return roots.map((root) => path.join(root, pattern));
}

function formatOf(file: string): 'json' | 'yaml' {
  return path.extname(file).toLowerCase() === '.json' ? 'json' : 'yaml';
}

/**
 * Reads a file whose real path is known to be inside a root. O_NOFOLLOW makes a symlink swapped in after the check
 * fail instead of being followed out of the root.
 */
export async function readBounded(real: string): Promise<string> {
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB (${stat.size} bytes): skipped`);
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

/** Symlinks are listed so that one leading out of the roots is reported, not silently missing; realpath decides. */
async function matchingFiles(pattern: string): Promise<string[]> {
  const files = await glob(pattern, { absolute: true, onlyFiles: true, followSymbolicLinks: true, expandDirectories: false, dot: false });
  return files.sort();
}

/** Scrapes the JSON and YAML files the entry's `paths` globs find under the allowed roots. */
export const runFileSource: SourceRunner = async (entry: SourceEntry, context: SourceContext) => {
  const label = `file[${entry.index}]`;
  const collector = new ItemCollector(entry.spec);
  const patterns = patternsOf(entry.spec);
  if (typeof entry.spec.url === 'string' && entry.spec.url !== '') {
    collector.error(label, 'url is not read by file sources on this server: use an http source for files served over HTTP');
  }
  if (patterns.length === 0 && entry.spec.url === undefined) collector.error(label, 'no paths: give one or more globs');
  if (context.roots.length === 0) collector.error(label, 'no folder may be read: the server has no scrape roots (OPSDECK_SCRAPE_ROOTS)');
  const seen = new Set<string>();
  for (const pattern of patterns.flatMap((value) => absolutePatterns(value, context.roots))) {
    if (!isUnder(staticBase(pattern), context.roots)) {
      collector.error(`${label} ${pattern}`, `outside the allowed roots (${context.roots.join(', ') || 'none set'})`);
      continue;
    }
    let files: string[];
    try {
      files = await matchingFiles(pattern);
    } catch (error) {
      collector.error(`${label} ${pattern}`, messageOf(error));
      continue;
    }
    for (const file of files) {
      if (context.signal.aborted) {
        collector.error(label, 'the run was stopped before every file was read');
        return collector.result();
      }
      const where = `${label} ${file}`;
      try {
        const real = await realpath(file);
        if (seen.has(real)) continue;
        seen.add(real);
        if (!isUnder(real, context.roots)) throw new Error(`resolves to ${real}, outside the allowed roots`);
        const format = formatOf(real);
        const documents = parseDocuments(await readBounded(real), format);
        const origin = { where, source: pathToFileURL(file).href, format };
        documents.forEach((document, index) => collector.addDocument(document, documents.length === 1 ? origin : { ...origin, where: `${where} document[${index}]` }));
      } catch (error) {
        collector.error(where, messageOf(error));
      }
    }
  }
  return collector.result();
};
