import { ApiError } from '@/lib/api/api-error';
import { authRequest, isFlowBody } from './auth-request';
import type { FlowValues, SelfServiceFlow } from './flow-types';

const LOGIN_BASE = '/api/auth/self-service/login';

export interface CreateLoginFlowOptions {
  returnTo: string | null;
  refresh: boolean;
  aal: string | null;
}

export async function createLoginFlow(options: CreateLoginFlowOptions): Promise<SelfServiceFlow> {
  const params = new URLSearchParams();
  if (options.returnTo !== null) params.set('return_to', options.returnTo);
  if (options.refresh) params.set('refresh', 'true');
  if (options.aal !== null) params.set('aal', options.aal);
  const query = params.toString();
  const { status, body } = await authRequest(`${LOGIN_BASE}/browser${query === '' ? '' : `?${query}`}`);
  if (status === 200 && isFlowBody(body)) return body as SelfServiceFlow;
  throw new ApiError(status, body);
}

export async function getLoginFlow(id: string): Promise<SelfServiceFlow> {
  const { status, body } = await authRequest(`${LOGIN_BASE}/flows?id=${encodeURIComponent(id)}`);
  if (status === 200 && isFlowBody(body)) return body as SelfServiceFlow;
  throw new ApiError(status, body);
}

/** A flow id from the address bar is reused when it is still valid; an unknown or stale one gets a fresh flow. */
export async function getOrCreateLoginFlow(flowId: string | null, options: CreateLoginFlowOptions): Promise<SelfServiceFlow> {
  if (flowId === null) return createLoginFlow(options);
  try {
    return await getLoginFlow(flowId);
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return createLoginFlow(options);
    throw error;
  }
}

export interface LoginSuccess {
  session: { id: string };
  identity: { id: string };
}

export type LoginOutcome = { kind: 'signed-in'; result: LoginSuccess } | { kind: 'flow'; flow: SelfServiceFlow };

/** Submits the form; a 400 answers with the same flow carrying field messages, which replaces the held one. */
export async function updateLoginFlow(flow: SelfServiceFlow, values: FlowValues): Promise<LoginOutcome> {
  const { status, body } = await authRequest(flow.ui.action, { method: 'POST', json: { method: 'password', ...values } });
  if (status === 200) return { kind: 'signed-in', result: body as LoginSuccess };
  if (status === 400 && isFlowBody(body)) return { kind: 'flow', flow: body as SelfServiceFlow };
  throw new ApiError(status, body);
}
