import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { SourceContext, SourceEntry, SourceRunner } from '../types';
import { ItemCollector, parseDocuments, parseProperties } from './extract';
import { fileErrorMessage, fileSource, shownPath } from './shown-paths';
import { parseGitSource, withGitCheckout } from './git-checkout';

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
 * fail instead of being followed out of the root; O_NONBLOCK keeps a FIFO from holding the run until its timeout (it
 * is then refused as not a regular file).
 */
export async function readBounded(real: string): Promise<string> {
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB (${stat.size} bytes): skipped`);
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

/**
 * The symlink by which a path found under a root leaves the roots: its first segment whose real path is outside them.
 * A symlinked folder is named once, and the names of the files it leads to are never shown.
 */
async function escapingLink(file: string, roots: readonly string[]): Promise<string> {
  const root = roots.find((candidate) => isUnder(file, [candidate]));
  if (root === undefined) return file;
  let current = root;
  for (const segment of path.relative(root, file).split(path.sep)) {
    current = path.join(current, segment);
    const real = await realpath(current).catch(() => current);
    if (!isUnder(real, roots)) return current;
  }
  return file;
}

/** Symlinks are listed so that one leading out of the roots is reported, not silently missing; realpath decides. */
async function matchingFiles(pattern: string): Promise<string[]> {
  const files = await glob(pattern, { absolute: true, onlyFiles: true, followSymbolicLinks: true, expandDirectories: false, dot: false });
  return files.sort();
}

/** Scrapes the JSON and YAML files the entry's `paths` globs find under the allowed roots. */
/** Where a run reads files: the scrape roots, or the checkout of a file source's `url` (its `source` names the repository). */
interface FileArea {
  roots: readonly string[];
  source: (file: string) => string;
}

/** Reads every file the patterns match under the area's roots into the collector; false when the run was stopped. */
async function readPatterns(entry: SourceEntry, label: string, patterns: readonly string[], area: FileArea, signal: AbortSignal, collector: ItemCollector): Promise<boolean> {
  const { roots } = area;
  const seen = new Set<string>();
  const reportedLinks = new Set<string>();
  const candidates = patterns.flatMap((value, index) => absolutePatterns(value, roots).map((pattern) => ({ pattern, index })));
  for (const { pattern, index } of candidates) {
    if (!isUnder(staticBase(pattern), roots)) {
      collector.error(`${label} paths[${index}]`, 'names a path outside the scrape roots (OPSDECK_SCRAPE_ROOTS): not read');
      continue;
    }
    let files: string[];
    try {
      files = await matchingFiles(pattern);
    } catch (error) {
      collector.error(`${label} ${shownPath(pattern, roots)}`, fileErrorMessage(error, roots));
      continue;
    }
    for (const file of files) {
      if (signal.aborted) {
        collector.error(label, 'the run was stopped before every file was read');
        return false;
      }
      // The glob's own name for the file, under the root it searched: a symlink is named by itself, never by its target.
      const where = `${label} ${shownPath(file, roots)}`;
      try {
        const real = await realpath(file);
        if (seen.has(real)) continue;
        seen.add(real);
        if (!isUnder(real, roots)) {
          const link = shownPath(await escapingLink(file, roots), roots);
          if (!reportedLinks.has(link)) collector.error(`${label} ${link}`, 'is a symlink that leads outside the scrape roots: not read');
          reportedLinks.add(link);
          continue;
        }
        const content = await readBounded(real);
        // `format: properties` reads the file as one map of its keys (config-db's PostgreSQL and Java properties files).
        const format = entry.spec.format === 'properties' ? 'properties' : formatOf(real);
        const documents = format === 'properties' ? [parseProperties(content)] : parseDocuments(content, format);
        const origin = { where, source: area.source(file), format };
        documents.forEach((document, position) => collector.addDocument(document, documents.length === 1 ? origin : { ...origin, where: `${where} document[${position}]` }));
      } catch (error) {
        collector.error(where, fileErrorMessage(error, roots));
      }
    }
  }
  return true;
}

/**
 * config-db's file source: globs under the scrape roots, or, with `url`, paths relative to one commit of a public git
 * repository fetched for the run (git-checkout.ts) and removed after.
 */
export const runFileSource: SourceRunner = async (entry: SourceEntry, context: SourceContext) => {
  const label = `file[${entry.index}]`;
  const collector = new ItemCollector(entry.spec, entry.full);
  const patterns = patternsOf(entry.spec);
  if (patterns.length === 0) {
    collector.error(label, 'no paths: give one or more globs');
    return collector.result();
  }
  if (typeof entry.spec.url === 'string' && entry.spec.url !== '') {
    const source = parseGitSource(entry.spec.url);
    if ('error' in source) {
      collector.error(label, `url ${source.error}`);
      return collector.result();
    }
    const relative = patterns.filter((pattern) => !path.isAbsolute(pattern));
    if (relative.length < patterns.length) collector.error(label, 'paths of a repository are relative to its root: an absolute one is not read');
    try {
      await withGitCheckout(source, context.signal, async (folder) => {
        const root = await realpath(folder);
        await readPatterns(entry, label, relative, { roots: [root], source: (file) => `${source.url}${source.ref === null ? '' : `?ref=${source.ref}`}#${shownPath(file, [root])}` }, context.signal, collector);
      });
    } catch (error) {
      collector.error(label, error instanceof Error ? error.message : String(error));
    }
    return collector.result();
  }
  if (context.roots.length === 0) {
    collector.error(label, 'no folder may be read: the server has no scrape roots (OPSDECK_SCRAPE_ROOTS)');
    return collector.result();
  }
  await readPatterns(entry, label, patterns, { roots: context.roots, source: (file) => fileSource(file, context.roots) }, context.signal, collector);
  return collector.result();
};
