import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@opsdeck/server';

/**
 * The apps/server folder, found by walking up from a module's URL. The same code runs from src/ (tests, tsx) and from
 * the bundle in dist/, which sit at different depths, so paths relative to a module's own folder would differ.
 */
export function serverPackageRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${fileURLToPath(moduleUrl)} is not inside the ${PACKAGE_NAME} package`);
    dir = parent;
  }
}
