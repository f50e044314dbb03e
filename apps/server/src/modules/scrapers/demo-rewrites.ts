import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Often enough that a visitor sees new changes within a few minutes, rarely enough to keep the history readable. */
export const DEMO_REWRITE_MS = 4 * 60_000;

/** Where the demo seed copies the sample manifests: under <DATA_DIR>/scrape, the default scrape root. */
export function demoScrapeDir(dataDir: string): string {
  return path.join(dataDir, 'scrape', 'demo');
}

interface Rewrite {
  file: string;
  pattern: RegExp;
  values: readonly string[];
}

/** Small edits a team makes every day: a scale-up, a new image, a raised limit. Each step moves one value along. */
const REWRITES: readonly Rewrite[] = [
  { file: 'kubernetes/wishlist-deployment.yaml', pattern: /(\n {2}replicas: )(\d+)/, values: ['3', '4', '5'] },
  { file: 'kubernetes/search-deployment.yaml', pattern: /(image: ghcr\.io\/demo-shop\/search:)(\S+)/, values: ['1.8.0', '1.8.1', '1.9.0'] },
  { file: 'apps/wishlist.json', pattern: /("maxWishlistItems": )(\d+)/, values: ['50', '75', '100'] },
  { file: 'infra/session-cache.yaml', pattern: /(\nnodes: )(\d+)/, values: ['3', '4'] },
];

/** Moves one rewrite's value to the next in its list; returns false when the file is gone or no longer matches. */
export function rewriteDemoFile(folder: string, step: number): boolean {
  const rewrite = REWRITES[step % REWRITES.length];
  if (rewrite === undefined) return false;
  const file = path.join(folder, rewrite.file);
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const match = rewrite.pattern.exec(text);
  if (match === null) return false;
  const current = rewrite.values.indexOf(match[2] ?? '');
  const next = rewrite.values[(current + 1) % rewrite.values.length] ?? rewrite.values[0] ?? '';
  // Renamed into place, so a scrape that reads the file meanwhile sees the old or the new one, never half of it.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text.replace(rewrite.pattern, `$1${next}`));
  renameSync(temporary, file);
  return true;
}

/**
 * In the demo only: rewrites one sample file every few minutes so the demo scraper keeps finding changes. Nothing
 * happens where the demo folder does not exist (the demo was never seeded here). Returns the function that stops it.
 */
export function startDemoRewrites(dataDir: string, onError: (error: unknown) => void): () => void {
  const folder = demoScrapeDir(dataDir);
  let step = 0;
  const timer = setInterval(() => {
    try {
      rewriteDemoFile(folder, step);
    } catch (error) {
      onError(error);
    }
    step += 1;
  }, DEMO_REWRITE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
