import { stringify } from 'yaml';

export const KUBECONFIG_NAME = 'opsdeck';
export const KUBECONFIG_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A kubeconfig whose user authenticates to the Opsdeck API with a bearer session token. */
export function renderKubeconfig(options: { server: string; userName: string; token: string }): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: KUBECONFIG_NAME, cluster: { server: options.server } }],
    users: [{ name: options.userName, user: { token: options.token } }],
    contexts: [{ name: KUBECONFIG_NAME, context: { cluster: KUBECONFIG_NAME, user: options.userName } }],
    'current-context': KUBECONFIG_NAME,
    preferences: {},
  });
}
