import { chown, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExecConnections } from '@opsdeck/shared';
import type { ResolvedConnection } from '../connections';
import type { SandboxUser } from './exec-sandbox';

/** The kinds of `exec.connections` handed to scripts, and the connection types each takes. */
type ConnectionKind = 'aws' | 'kubernetes' | 'azure';
export const EXEC_CONNECTION_TYPES: Readonly<Record<ConnectionKind, readonly string[]>> = { aws: ['aws', 's3'], kubernetes: ['kubernetes'], azure: ['azure'] };
const KINDS = Object.keys(EXEC_CONNECTION_TYPES) as ConnectionKind[];

/** Variables a CLI reads, set only where the connection has the value. */
function present(entries: Record<string, string | null | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}

/**
 * The environment of an exec script's `connections` (exec checks, exec scrapers, exec playbook actions; all admin-only):
 * each stored connection's credentials as the variables its CLI reads (aws, azure), or a KUBECONFIG file in the
 * script's private folder readable by the sandbox user only. `resolve` opens the connection and is where the caller
 * collects its secrets for scrubbing.
 */
export async function execConnectionEnvironment(
  connections: ExecConnections | undefined,
  resolve: (reference: string) => Promise<ResolvedConnection>,
  folder: string,
  user: SandboxUser,
): Promise<{ variables: Record<string, string> } | { error: string }> {
  const variables: Record<string, string> = {};
  for (const kind of KINDS) {
    const reference = connections?.[kind]?.connection;
    if (reference === undefined) continue;
    let connection: ResolvedConnection;
    try {
      connection = await resolve(reference);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    if (!EXEC_CONNECTION_TYPES[kind].includes(connection.type)) return { error: `connections.${kind} names ${connection.namespace}/${connection.name}, a ${connection.type} connection` };
    if (kind === 'aws') {
      const region = connection.properties.region;
      Object.assign(variables, present({ AWS_ACCESS_KEY_ID: connection.username, AWS_SECRET_ACCESS_KEY: connection.password, AWS_REGION: region, AWS_DEFAULT_REGION: region, AWS_ENDPOINT_URL: connection.url }));
    } else if (kind === 'azure') {
      Object.assign(variables, present({ AZURE_CLIENT_ID: connection.username, AZURE_CLIENT_SECRET: connection.password, AZURE_TENANT_ID: connection.properties.tenant }));
    } else {
      if (connection.certificate === null || connection.certificate === '') return { error: `connections.kubernetes names ${connection.namespace}/${connection.name}, which holds no kubeconfig` };
      const file = path.join(folder, 'kubeconfig');
      await writeFile(file, connection.certificate, { mode: 0o600 });
      await chown(file, user.uid, user.gid);
      variables.KUBECONFIG = file;
    }
  }
  return { variables };
}
