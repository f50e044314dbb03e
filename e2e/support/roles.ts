import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROLES = ['admin', 'editor', 'commander', 'responder', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const DEMO_PASSWORD = 'opsdeck-demo';

/**
 * Names this run's storage states and artifacts. scripts/e2e.mjs sets it per run, so two runs in one working tree
 * (several people share this machine) never delete or overwrite each other's sign-ins.
 */
export const RUN_ID = process.env.E2E_RUN_ID ?? 'local';

export const AUTH_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.auth', RUN_ID);

export function demoEmail(role: Role): string {
  return `${role}@opsdeck.local`;
}

/** The saved browser state of a signed-in demo user, written by auth.setup.ts. */
export function storageStateFor(role: Role): string {
  return path.join(AUTH_DIR, `${role}.json`);
}
