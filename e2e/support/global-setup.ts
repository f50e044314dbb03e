import { mkdirSync, rmSync } from 'node:fs';
import { AUTH_DIR } from './roles';

/** Storage states from an earlier run hold sessions of a database that no longer exists. */
export default function globalSetup(): void {
  rmSync(AUTH_DIR, { recursive: true, force: true });
  mkdirSync(AUTH_DIR, { recursive: true });
}
