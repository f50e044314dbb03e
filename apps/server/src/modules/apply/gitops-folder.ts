import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ApplyFile } from './apply-documents';

/** The property naming the folder: under `security.`, so only an administrator may set it (migration 0109). */
export const GITOPS_FOLDER_PROPERTY = 'security.gitops.folder';

const MAX_FILES = 500;
const MAX_FILE_BYTES = 5_000_000;
const YAML_FILE = /\.ya?ml$/i;

export class GitopsFolderError extends Error {}

function inside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(`${root}${path.sep}`);
}

/**
 * The folder named by the property, as a real path inside one of the roots the operator allowed at start-up
 * (OPSDECK_GITOPS_ROOTS): a path typed into the console can never make the server read anything else.
 */
export function allowedFolder(folder: string, roots: readonly string[]): string {
  if (!path.isAbsolute(folder)) throw new GitopsFolderError(`${folder} is not an absolute path`);
  if (!existsSync(folder)) throw new GitopsFolderError(`${folder} does not exist`);
  const real = realpathSync(folder);
  if (!roots.some((root) => inside(root, real))) {
    throw new GitopsFolderError(`${folder} is outside the folders this server may read (OPSDECK_GITOPS_ROOTS: ${roots.join(':')})`);
  }
  return real;
}

/**
 * The .yaml/.yml files under the folder, recursively, named relative to it; symlinks are not followed (a link could
 * point outside the allowed root) and hidden entries (.git) are skipped.
 */
export function readGitopsFolder(folder: string): ApplyFile[] {
  const files: ApplyFile[] = [];
  const walk = (current: string): void => {
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && YAML_FILE.test(entry.name)) {
        if (files.length >= MAX_FILES) throw new GitopsFolderError(`${folder} holds more than ${MAX_FILES} YAML files`);
        const relative = path.relative(folder, full).split(path.sep).join('/');
        if (lstatSync(full).size > MAX_FILE_BYTES) throw new GitopsFolderError(`${relative} is larger than ${MAX_FILE_BYTES} bytes`);
        files.push({ path: relative, content: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(folder);
  return files;
}
