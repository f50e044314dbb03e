import path from 'node:path';
import { messageOf } from './extract';

/**
 * Scrape errors and item sources are read by every role: they name files relative to their scrape root, so neither
 * the server's folders (DATA_DIR, the roots) nor anything outside the roots is ever shown.
 */
export const OUTSIDE_ROOTS = 'a path outside the scrape roots';

/** An absolute path or glob relative to the root it lies in ('.' for the root itself), or OUTSIDE_ROOTS. */
export function shownPath(absolute: string, roots: readonly string[]): string {
  const normal = path.normalize(absolute);
  for (const root of roots) {
    const relative = path.relative(root, normal);
    if (relative === '') return '.';
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) return relative;
  }
  return OUTSIDE_ROOTS;
}

/** A path as a spec writes it (absolute, or relative to the roots), shown as shownPath does, after any `..` is resolved. */
export function shownSpecPath(written: string, roots: readonly string[]): string {
  const [first] = roots;
  if (path.isAbsolute(written)) return shownPath(written, roots);
  return first === undefined ? OUTSIDE_ROOTS : shownPath(path.join(first, written), roots);
}

/** ScrapedItem.source of an item read from a file: `file:` and its path under the root. */
export function fileSource(absolute: string, roots: readonly string[]): string {
  return `file:${shownPath(absolute, roots)}`;
}

const SYSTEM_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'not found',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ELOOP: 'a symlink where a file was expected: not followed',
  EISDIR: 'a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files on the server',
  ENFILE: 'too many open files on the server',
};

function systemCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every root in a text made relative, longest first so that a root inside another is not cut in half. */
export function withoutRoots(text: string, roots: readonly string[]): string {
  return [...roots]
    .sort((a, b) => b.length - a.length)
    .reduce((current, root) => {
      const escaped = escapeRegExp(root);
      return current.replace(new RegExp(`${escaped}${escapeRegExp(path.sep)}`, 'g'), '').replace(new RegExp(`${escaped}(?![\\w.-])`, 'g'), '.');
    }, text);
}

/**
 * Why a file could not be read, without the path Node puts in its system errors (`EACCES: …, open '/srv/…'`), which
 * may be the root's absolute path or, through a symlink, a path outside the roots.
 */
export function fileErrorMessage(error: unknown, roots: readonly string[]): string {
  const code = systemCode(error);
  if (code !== null) return `${SYSTEM_ERRORS[code] ?? 'cannot be read'} (${code})`;
  return withoutRoots(messageOf(error), roots);
}
