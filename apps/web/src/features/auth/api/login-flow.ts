import { ApiError } from '@/lib/api/api-error';
import type { FlowValues, SelfServiceFlow } from './flow-types';
import { createBrowserFlow, getFlow, submitFlow, type FlowOutcome } from './self-service-flow';

export interface CreateLoginFlowOptions {
  returnTo: string | null;
  refresh: boolean;
  aal: string | null;
}

export function createLoginFlow(options: CreateLoginFlowOptions): Promise<SelfServiceFlow> {
  return createBrowserFlow('login', { returnTo: options.returnTo, params: { refresh: options.refresh ? 'true' : null, aal: options.aal } });
}

/** A flow id from the address bar is reused when it is still valid; an unknown or stale one gets a fresh flow. */
export async function getOrCreateLoginFlow(flowId: string | null, options: CreateLoginFlowOptions): Promise<SelfServiceFlow> {
  if (flowId === null) return createLoginFlow(options);
  try {
    return await getFlow('login', flowId);
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return createLoginFlow(options);
    throw error;
  }
}

/**
 * Submits the sign-in form. The clicked button names the method (password, totp, lookup_secret, webauthn); a form
 * sent without one, as the address-bar auto sign-in may be, is the password step.
 */
export function updateLoginFlow(flow: SelfServiceFlow, values: FlowValues): Promise<FlowOutcome> {
  return submitFlow(flow, { method: 'password', ...values });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Where a successful step says to go next: a password step of a person with a second factor answers with
 * `continue_with: [{action: 'redirect_browser_to', redirect_browser_to: '/login?aal=aal2&return_to=…'}]`.
 */
export function continueWithRedirect(body: unknown): string | null {
  if (!isRecord(body) || !Array.isArray(body.continue_with)) return null;
  for (const item of body.continue_with) {
    if (isRecord(item) && item.action === 'redirect_browser_to' && typeof item.redirect_browser_to === 'string') return item.redirect_browser_to;
  }
  return null;
}
