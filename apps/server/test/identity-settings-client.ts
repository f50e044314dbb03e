import { expect } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { csrfOf, TestBrowser, type FlowBody, type KratosErrorResponse } from './auth-client';
import type { TestServer } from './harness';

/** What the settings and second-factor tests share: their own people, and the settings flow driven as the web does. */

export const PASSWORD = 'opsdeck-demo';

export interface UiTextBody {
  id: number;
  text: string;
  type: string;
  context?: Record<string, unknown>;
}

export interface FullNode {
  type: string;
  group: string;
  attributes: { node_type: string; name?: string; type?: string; value?: unknown; id?: string; src?: string; text?: UiTextBody };
  messages: UiTextBody[];
  meta: { label?: UiTextBody };
}

export type Flow = Omit<FlowBody, 'ui'> & { ui: { action: string; method: string; messages?: UiTextBody[]; nodes: FullNode[] } };

export interface SessionBody {
  id: string;
  authenticator_assurance_level: string;
  authentication_methods: { method: string; aal: string }[];
  identity: { id: string; traits: { email: string; name: { first: string; last: string } } };
  person: { name: string; email: string };
}

export type ErrorBody = KratosErrorResponse & { redirect_browser_to?: string };

/** A person of the test's own, so throttles and session revocations never reach other tests. */
export { createPerson } from './identity-email-flows-support';

export async function signedIn(server: TestServer, email: string, password = PASSWORD): Promise<TestBrowser> {
  const browser = new TestBrowser(server.url);
  const response = await browser.signIn(email, password);
  expect(response.status).toBe(200);
  return browser;
}

export async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export async function startSettings(browser: TestBrowser): Promise<Flow> {
  const response = await browser.json('/api/auth/self-service/settings/browser');
  expect(response.status).toBe(200);
  return json<Flow>(response);
}

export function submitSettings(browser: TestBrowser, flow: Flow, body: Record<string, string>): Promise<Response> {
  return browser.json(flow.ui.action, { method: 'POST', body: JSON.stringify({ csrf_token: csrfOf(flow as FlowBody), ...body }) });
}

export function submitLogin(browser: TestBrowser, flow: Flow, body: Record<string, string>): Promise<Response> {
  return browser.json(flow.ui.action, { method: 'POST', body: JSON.stringify({ csrf_token: csrfOf(flow as FlowBody), ...body }) });
}

export async function startLogin(browser: TestBrowser, query: string): Promise<Flow> {
  const response = await browser.json(`/api/auth/self-service/login/browser${query}`);
  expect(response.status).toBe(200);
  return json<Flow>(response);
}

export function inputNamed(flow: Flow, name: string, value?: string): FullNode | undefined {
  return flow.ui.nodes.find((node) => node.attributes.name === name && (value === undefined || node.attributes.value === value));
}

export function nodeWithId(flow: Flow, id: string): FullNode | undefined {
  return flow.ui.nodes.find((node) => node.attributes.id === id);
}

/** The TOTP key the settings flow shows for manual entry. */
export function totpSecretOf(flow: Flow): string {
  const secret = nodeWithId(flow, 'totp_secret_key')?.attributes.text?.text;
  if (secret === undefined || secret === '') throw new Error('the flow shows no TOTP key');
  return secret;
}

/** The code an authenticator app shows for this key at `at` (ms). */
export function totpCode(secret: string, at = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}

/** The recovery codes (or 'Used') the flow's code list shows. */
export function shownCodes(flow: Flow): string[] {
  const secrets = nodeWithId(flow, 'lookup_secret_codes')?.attributes.text?.context?.secrets as UiTextBody[] | undefined;
  if (secrets === undefined) throw new Error('the flow shows no recovery codes');
  return secrets.map((secret) => secret.text);
}

export async function whoami(browser: TestBrowser): Promise<{ status: number; body: SessionBody & ErrorBody }> {
  const response = await browser.json('/api/auth/sessions/whoami');
  return { status: response.status, body: await json<SessionBody & ErrorBody>(response) };
}

/** A call to an ordinary API route with the browser's session cookie. */
export async function apiStatus(server: TestServer, browser: TestBrowser): Promise<number> {
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return (await server.call('GET', '/api/db/people?select=id&limit=1', cookie)).status;
}
