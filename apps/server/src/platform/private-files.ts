import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * DATA_DIR holds the database and the key that decrypts every stored secret, so only the server's own user may
 * read or write anything in it: folders 0700, files 0600.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export type Warn = (message: string) => void;

const warnOnConsole: Warn = (message) => console.warn(message);

/**
 * Takes away every permission beyond `mode` from an existing file or folder, saying so, because a broader mode
 * means some other user of the machine could have read or changed it. Missing paths are left alone.
 */
export function restrictMode(target: string, mode: number, warn: Warn = warnOnConsole): void {
  let current: number;
  try {
    current = statSync(target).mode & 0o777;
  } catch {
    return;
  }
  if ((current & ~mode) === 0) return;
  const wanted = current & mode;
  try {
    chmodSync(target, wanted);
    warn(`${target} was accessible to other users (mode ${current.toString(8)}); it is now ${wanted.toString(8)}`);
  } catch (error) {
    warn(`${target} is accessible to other users (mode ${current.toString(8)}) and could not be restricted: ${String(error)}`);
  }
}

/** Creates the folder (and missing parents) readable by the owner only, or restricts it when it already exists. */
export function ensurePrivateDir(dir: string, warn: Warn = warnOnConsole): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  restrictMode(dir, PRIVATE_DIR_MODE, warn);
}
