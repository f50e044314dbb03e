import type { FlowKind } from './flow-types';

export interface FlowQueryKey {
  flowId: string | null;
  returnTo: string | null;
  /** The creation parameters besides return_to (refresh, aal, after_verification_return_to). */
  params: Readonly<Record<string, string | null>>;
  generation: number;
}

export const authKeys = {
  all: ['auth'] as const,
  flow: (kind: FlowKind, key: FlowQueryKey) => [...authKeys.all, 'flow', kind, key] as const,
  flowError: (id: string) => [...authKeys.all, 'flow-error', id] as const,
};

/** Whether a query key is a login flow's (authKeys.flow('login', …)). */
export function isLoginFlowKey(key: readonly unknown[]): boolean {
  return key[0] === authKeys.all[0] && key[1] === 'flow' && key[2] === 'login';
}
