import { realpathSync } from 'node:fs';
import path from 'node:path';

/** Characters that make a path segment a glob (tinyglobby's syntax) or a Liquid template (`{{ labels.app }}`). */
const PATTERN_CHARS = /[*?[\]{}()!+@]/;

/** True when `file` is a root or lies under one; both must already be absolute and normalized. */
export function isInsideRoots(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const relative = path.relative(root, file);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
}

/**
 * The roots as real paths, read now rather than at start: a root created (or re-pointed through a symlink) after the
 * server started is compared by where it really is. A root that does not exist is kept as written; nothing under it
 * can exist either.
 */
export function realRoots(roots: readonly string[]): string[] {
  return roots.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      return path.resolve(root);
    }
  });
}

/** The part of an absolute pattern no glob or template can change: the whole path, or the folder before the first pattern segment. */
export function literalPart(pattern: string): string {
  const segments = pattern.split('/');
  const index = segments.findIndex((segment) => PATTERN_CHARS.test(segment));
  return index === -1 ? path.resolve('/', ...segments) : path.resolve('/', ...segments.slice(0, index));
}

/**
 * Where a path really leads: the longest prefix that exists, through its symlinks, with the rest appended. So a
 * symlinked folder or file that points out of a root is judged by its target even when the file named under it
 * does not exist yet.
 */
export function realTarget(absolute: string): string {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest);
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

/** A pattern made absolute against each root it applies to: an absolute one as written, a relative one under every root. */
export function absolutePatterns(pattern: string, roots: readonly string[]): Array<{ pattern: string; roots: readonly string[] }> {
  if (path.isAbsolute(pattern)) return [{ pattern: path.normalize(pattern), roots }];
  return roots.map((root) => ({ pattern: path.join(root, pattern), roots: [root] }));
}

/**
 * Why a `file.paths` entry may not be read, or null when it stays inside the roots: after `..` is resolved, and with
 * every symlink of its existing part followed. A `..` after a glob segment is refused outright, since no fixed path
 * says where it leads.
 */
export function pathProblem(pattern: string, roots: readonly string[]): string | null {
  if (pattern.trim() === '') return 'is empty';
  if (pattern.includes('\0')) return 'holds a NUL character';
  if (roots.length === 0) return 'cannot be read: this server has no log roots';
  const segments = pattern.split('/');
  const firstPattern = segments.findIndex((segment) => PATTERN_CHARS.test(segment));
  if (firstPattern !== -1 && segments.slice(firstPattern).includes('..')) return `'${pattern}' climbs with '..' after a glob`;
  const real = realRoots(roots);
  for (const candidate of absolutePatterns(pattern, real)) {
    const literal = literalPart(candidate.pattern);
    if (!isInsideRoots(literal, [...candidate.roots, ...roots.map((root) => path.resolve(root))])) return `'${pattern}' is outside the log roots`;
    if (!isInsideRoots(realTarget(literal), candidate.roots)) return `'${pattern}' leads through a symlink out of the log roots`;
  }
  return null;
}
