import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One process owns an embedded data folder at a time; a lock left by a dead process is taken over. */
export function acquireLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'opsdeck.lock');
  if (existsSync(file)) {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
      throw new Error(`The data folder ${dataDir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}
