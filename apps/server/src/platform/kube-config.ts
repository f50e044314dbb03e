import type * as KubernetesClient from '@kubernetes/client-node';
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { record, text, type Json } from './json-values';

/**
 * Kubernetes clients for a stored kubernetes connection, built by the same rules for every feature that reads a
 * cluster (scrapers, kubernetes checks, log backends): a kubeconfig may not run a program or read a file as the server,
 * and a plain-HTTP API server is refused unless TLS checks are explicitly off.
 */

/**
 * The client library, loaded at its first use: it alone adds about 80 MB to a process (ADR 0079), and a server or agent
 * that never reads a cluster should not carry it.
 */
export function kubernetesClient(): Promise<typeof KubernetesClient> {
  return import('@kubernetes/client-node');
}

/** The fields of a stored connection a Kubernetes client is built from. */
export interface KubernetesConnectionFields {
  type: string;
  certificate: string | null;
  url: string | null;
  password: string | null;
  insecureTls: boolean;
}

/** A kubeconfig or connection that cannot be used: the caller reports it once, and nothing is requested. */
export class KubernetesSourceError extends Error {}

/** An error's message with the network cause the client wraps (ECONNREFUSED…). */
export function kubeErrorMessage(error: unknown): string {
  if (error instanceof Error) {
    const cause = record((error as Error & { cause?: unknown }).cause);
    const detail = text(cause.code) ?? text(cause.message);
    return detail === undefined ? error.message : `${error.message} (${detail})`;
  }
  return String(error);
}

/**
 * Fields of a kubeconfig that make the client run a program (exec, auth-provider) or read a file (paths to
 * certificates, keys and tokens). Any of them would act with the server's own rights, so such a kubeconfig is refused.
 */
const USER_FORBIDDEN = ['exec', 'auth-provider', 'client-certificate', 'client-key', 'tokenFile', 'token-file'];
const CLUSTER_FORBIDDEN = ['certificate-authority'];

function named(list: unknown, field: string): Array<{ name: string; value: Json }> {
  return (Array.isArray(list) ? list : []).map(record).flatMap((entry) => {
    const name = text(entry.name);
    return name === undefined ? [] : [{ name, value: record(entry[field]) }];
  });
}

/** Builds a client configuration from kubeconfig text, keeping only the inline fields a kubeconfig can carry. */
export async function kubeConfigFromText(content: string): Promise<KubeConfig> {
  let document: Json;
  try {
    document = record(parseYaml(content));
  } catch {
    // The parser quotes the offending line, which may hold a token: the message names the problem only.
    throw new KubernetesSourceError('kubeconfig is not valid YAML');
  }
  const clusters = named(document.clusters, 'cluster');
  const users = named(document.users, 'user');
  const contexts = named(document.contexts, 'context');
  for (const user of users) {
    const found = USER_FORBIDDEN.find((field) => field in user.value);
    if (found !== undefined) {
      throw new KubernetesSourceError(`kubeconfig user '${user.name}' uses '${found}', which would run a program or read a file on the server: refused`);
    }
  }
  for (const cluster of clusters) {
    const found = CLUSTER_FORBIDDEN.find((field) => field in cluster.value);
    if (found !== undefined) {
      throw new KubernetesSourceError(`kubeconfig cluster '${cluster.name}' uses '${found}', a file on the server: give certificate-authority-data instead`);
    }
  }
  const contextName = text(document['current-context']) ?? contexts[0]?.name;
  const context = contexts.find((entry) => entry.name === contextName);
  if (context === undefined) throw new KubernetesSourceError('kubeconfig has no usable context');
  const clusterName = text(context.value.cluster);
  const userName = text(context.value.user);
  const cluster = clusters.find((entry) => entry.name === clusterName);
  if (cluster === undefined) throw new KubernetesSourceError(`kubeconfig context '${context.name}' names no known cluster`);
  const server = text(cluster.value.server);
  if (server === undefined) throw new KubernetesSourceError(`kubeconfig cluster '${cluster.name}' has no server`);
  const skipTLSVerify = cluster.value['insecure-skip-tls-verify'] === true;
  refusePlainHttp(server, skipTLSVerify);
  const user = users.find((entry) => entry.name === userName)?.value ?? {};
  const safeCluster: Cluster = {
    name: cluster.name,
    server,
    skipTLSVerify,
    ...optional('caData', text(cluster.value['certificate-authority-data'])),
    ...optional('tlsServerName', text(cluster.value['tls-server-name'])),
  };
  const safeUser: User = {
    name: userName ?? 'user',
    ...optional('token', text(user.token)),
    ...optional('certData', text(user['client-certificate-data'])),
    ...optional('keyData', text(user['client-key-data'])),
    ...optional('username', text(user.username)),
    ...optional('password', text(user.password)),
  };
  const config = new (await kubernetesClient()).KubeConfig();
  config.loadFromOptions({
    clusters: [safeCluster],
    users: [safeUser],
    contexts: [{ name: context.name, cluster: safeCluster.name, user: safeUser.name }],
    currentContext: context.name,
  });
  return config;
}

export function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/**
 * A plain http:// server sends the token unencrypted; the client refuses it unless TLS checks are off, so the same
 * rule is stated here with a message that says what to change.
 */
function refusePlainHttp(server: string, insecure: boolean): void {
  if (/^http:\/\//i.test(server) && !insecure) {
    throw new KubernetesSourceError(`${server} is plain HTTP: use https, or allow it explicitly with insecure TLS (insecure-skip-tls-verify)`);
  }
}

export async function kubeConfigFromServer(server: string, token: string | null, insecure: boolean): Promise<KubeConfig> {
  refusePlainHttp(server, insecure);
  const config = new (await kubernetesClient()).KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'cluster', server, skipTLSVerify: insecure }],
    users: [{ name: 'user', ...(token === null ? {} : { token }) }],
    contexts: [{ name: 'context', cluster: 'cluster', user: 'user' }],
    currentContext: 'context',
  });
  return config;
}

/** The client configuration a stored kubernetes connection gives: its kubeconfig, or its URL and token. */
export async function kubeConfigFromConnection(connection: KubernetesConnectionFields, reference: string): Promise<KubeConfig> {
  if (connection.type !== 'kubernetes') throw new KubernetesSourceError(`connection '${reference}' is of type ${connection.type}, not kubernetes`);
  if (connection.certificate !== null && connection.certificate.trim() !== '') return kubeConfigFromText(connection.certificate);
  if (connection.url !== null && connection.url !== '') return kubeConfigFromServer(connection.url, connection.password, connection.insecureTls);
  throw new KubernetesSourceError(`connection '${reference}' has neither a kubeconfig nor a URL`);
}

/** The server's own service account, when it runs in a cluster; otherwise a message saying what to configure. */
export async function inClusterKubeConfig(): Promise<KubeConfig> {
  if (text(process.env.KUBERNETES_SERVICE_HOST) === undefined) {
    throw new KubernetesSourceError('no kubeconfig: name a kubernetes connection (kubeconfig: connection://namespace/name) or run the server in a cluster');
  }
  const config = new (await kubernetesClient()).KubeConfig();
  config.loadFromCluster();
  return config;
}
