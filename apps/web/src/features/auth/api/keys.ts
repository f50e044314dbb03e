export interface LoginFlowKey {
  flowId: string | null;
  returnTo: string | null;
  refresh: boolean;
  aal: string | null;
  generation: number;
}

export const authKeys = {
  all: ['auth'] as const,
  loginFlow: (key: LoginFlowKey) => [...authKeys.all, 'login-flow', key] as const,
  flowError: (id: string) => [...authKeys.all, 'flow-error', id] as const,
};
