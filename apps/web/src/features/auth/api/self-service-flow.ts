import { ApiError } from '@/lib/api/api-error';
import { authRequest, isFlowBody } from './auth-request';
import type { FlowKind, FlowValues, SelfServiceFlow } from './flow-types';

const SELF_SERVICE_BASE = '/api/auth/self-service';

export interface CreateFlowOptions {
  returnTo: string | null;
  /** Further query parameters of the creation: refresh and aal (login), after_verification_return_to (registration). */
  params?: Readonly<Record<string, string | null | undefined>>;
}

/** Starts a browser flow; the identity service checks return_to and answers 400 when it may not be used. */
export async function createBrowserFlow(kind: FlowKind, { returnTo, params = {} }: CreateFlowOptions): Promise<SelfServiceFlow> {
  const query = new URLSearchParams();
  if (returnTo !== null && returnTo !== '') query.set('return_to', returnTo);
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') query.set(name, value);
  }
  const search = query.toString();
  const { status, body } = await authRequest(`${SELF_SERVICE_BASE}/${kind}/browser${search === '' ? '' : `?${search}`}`);
  if (status === 200 && isFlowBody(body)) return body as SelfServiceFlow;
  throw new ApiError(status, body);
}

export async function getFlow(kind: FlowKind, id: string): Promise<SelfServiceFlow> {
  const { status, body } = await authRequest(`${SELF_SERVICE_BASE}/${kind}/flows?id=${encodeURIComponent(id)}`);
  if (status === 200 && isFlowBody(body)) return body as SelfServiceFlow;
  throw new ApiError(status, body);
}

/**
 * What a submit led to: the flow again (the next step, a success message, or field errors of a 400), or the end of
 * the flow with another body, such as the `{session, identity}` of a registration or sign-in.
 */
export type FlowOutcome = { kind: 'flow'; flow: SelfServiceFlow } | { kind: 'complete'; body: unknown };

/** Sends the form values as JSON to the flow's action; every other answer (410, 403, 422 …) is thrown as an ApiError. */
export async function submitFlow(flow: SelfServiceFlow, values: FlowValues): Promise<FlowOutcome> {
  const { status, body } = await authRequest(flow.ui.action, { method: 'POST', json: values });
  if ((status === 200 || status === 400) && isFlowBody(body)) return { kind: 'flow', flow: body as SelfServiceFlow };
  if (status >= 200 && status < 300) return { kind: 'complete', body };
  throw new ApiError(status, body);
}
