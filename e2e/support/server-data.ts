import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_ID } from './roles';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A fresh folder inside one of the server's file roots. scripts/e2e.mjs starts the server with
 * DATA_DIR=.tmp/<run id>/data, and the server reads files only under its roots, which default to <DATA_DIR>/scrape
 * (OPSDECK_SCRAPE_ROOTS) for scrapers and <DATA_DIR>/logs (OPSDECK_LOG_ROOTS) for file log backends.
 */
export function serverDataFolder(root: 'scrape' | 'logs', name: string): string {
  const dataDir = path.join(REPO_ROOT, '.tmp', RUN_ID, 'data');
  if (!existsSync(dataDir)) throw new Error(`no server data folder at ${dataDir}: run the specs with \`npm run test:e2e\``);
  const folder = path.join(dataDir, root, name);
  mkdirSync(folder, { recursive: true });
  // The server compares real paths with its roots.
  return realpathSync(folder);
}
