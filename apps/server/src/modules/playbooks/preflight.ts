import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type pg from 'pg';
import type { ExecAction, PlaybookSpec, SqlAction } from '@opsdeck/shared';
import { SANDBOX_PATH } from '../health';
import { connectionUrlOf } from '../connections';

/** One thing an action needs from this host, and whether the host has it now. */
export interface PreflightNeed {
  action: string;
  met: boolean;
  /** One sentence a person reads before running: what is needed, and what is missing. */
  message: string;
}

/**
 * Command-line tools a playbook script commonly leans on that a host often lacks. Only these are looked for: reading
 * any word of a script as a command would flag shell keywords and functions.
 */
export const WELL_KNOWN_TOOLS = ['kubectl', 'helm', 'aws', 'az', 'gcloud', 'terraform', 'psql', 'mysql', 'redis-cli', 'mongosh', 'jq', 'yq', 'git', 'curl', 'docker', 'flux', 'argocd'] as const;

/** How long the reachability probe of a database waits: a preflight must answer while the dialog opens. */
export const PREFLIGHT_CONNECT_MS = 1_500;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/**
 * The well-known tools a script runs in command position, less those it tests for itself (`command -v kubectl`,
 * `which`, `type`, `hash`): a script that checks for a tool has said what it does without it.
 */
export function toolsUsed(script: string): string[] {
  return WELL_KNOWN_TOOLS.filter((tool) => {
    const name = escape(tool);
    const runs = new RegExp(`(^|[\\s;&|(\`]|\\$\\()${name}(?=$|[\\s;&|)])`, 'm').test(script);
    const checked = new RegExp(`\\b(command\\s+-v|which|type|hash)\\s+${name}\\b`).test(script);
    return runs && !checked;
  });
}

/** Whether `tool` is an executable on the PATH scripts run with (the exec sandbox's, not this server's). */
export function onSandboxPath(tool: string, searchPath: string = SANDBOX_PATH): boolean {
  return searchPath.split(':').some((folder) => {
    try {
      accessSync(path.join(folder, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function execNeeds(action: string, exec: ExecAction, hasTool: (tool: string) => boolean): PreflightNeed[] {
  return toolsUsed(exec.script).map((tool) => {
    if (!hasTool(tool)) return { action, met: false, message: `${tool} is not installed on this host` };
    if (tool === 'kubectl' && exec.connections?.kubernetes === undefined && !(exec.env ?? []).some((variable) => variable.name === 'KUBECONFIG')) {
      // Scripts run with a private HOME, so kubectl would fall back to localhost:8080 rather than a cluster.
      return { action, met: false, message: 'kubectl has no cluster to talk to: give the action a kubernetes connection or KUBECONFIG' };
    }
    return { action, met: true, message: `${tool} is installed` };
  });
}

/** Whether something accepts TCP connections at host:port within the probe's time. */
export function reachable(host: string, port: number, timeoutMs: number = PREFLIGHT_CONNECT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    const done = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { postgres: 5432, postgresql: 5432, mysql: 3306 };

async function sqlNeed(pool: pg.Pool, action: string, sql: SqlAction): Promise<PreflightNeed> {
  const url = await connectionUrlOf(pool, sql.connection);
  const label = sql.connection.replace(/^connection:\/\//, '');
  if (url === undefined) return { action, met: false, message: `The connection ${label} does not exist` };
  let target: URL;
  try {
    target = new URL(url ?? '');
  } catch {
    return { action, met: false, message: `The connection ${label} has no database URL` };
  }
  const port = target.port === '' ? (DEFAULT_PORTS[target.protocol.replace(/:$/, '')] ?? 5432) : Number(target.port);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const where = `${host}:${port}`;
  return (await reachable(host, port))
    ? { action, met: true, message: `The database of ${label} answers at ${where}` }
    : { action, met: false, message: `The database of ${label} does not answer at ${where}` };
}

/**
 * What the playbook's actions need from this host before it is run (#34): the well-known tools its scripts call, and
 * a database answering for each SQL action. Templated connections are left to the run, which knows their values.
 */
export async function playbookPreflight(pool: pg.Pool, spec: PlaybookSpec, hasTool: (tool: string) => boolean = onSandboxPath): Promise<PreflightNeed[]> {
  const needs: PreflightNeed[] = [];
  for (const action of spec.actions) {
    if (action.exec !== undefined) needs.push(...execNeeds(action.name, action.exec, hasTool));
    if (action.sql !== undefined && !action.sql.connection.includes('{{')) needs.push(await sqlNeed(pool, action.name, action.sql));
  }
  return needs;
}
