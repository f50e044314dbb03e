import { expect } from 'vitest';

/** The parts of a Kratos flow body the tests read. */
export interface FlowBody {
  id: string;
  type: string;
  return_to?: string;
  refresh?: boolean;
  requested_aal?: string;
  state: string;
  ui: {
    action: string;
    method: string;
    messages?: { id: number; text: string; type: string }[];
    nodes: {
      type: string;
      group: string;
      attributes: { name?: string; type?: string; value?: unknown; node_type: string; required?: boolean; disabled?: boolean };
      messages: { id: number; text: string; type: string }[];
      meta: { label?: { id: number; text: string; type: string } };
    }[];
  };
}

export interface KratosErrorResponse {
  error: { id?: string; code: number; status: string; message: string; reason?: string };
  use_flow_id?: string;
}

/** A tiny browser: keeps cookies between requests and never follows redirects, so tests can assert them. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  lastSetCookies: string[] = [];

  constructor(private readonly baseUrl: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, redirect: 'manual' });
    this.lastSetCookies = response.headers.getSetCookie();
    for (const header of this.lastSetCookies) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /max-age=0\b/i.test(header) || /expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  json(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('accept', 'application/json');
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    return this.request(path, { ...init, headers });
  }

  async startLogin(query = ''): Promise<FlowBody> {
    const response = await this.json(`/api/auth/self-service/login/browser${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as FlowBody;
  }

  submitJson(flow: FlowBody, body: Record<string, string>): Promise<Response> {
    return this.json(flow.ui.action, { method: 'POST', body: JSON.stringify(body) });
  }

  submitForm(flow: FlowBody, body: Record<string, string>): Promise<Response> {
    return this.request(flow.ui.action, { method: 'POST', body: new URLSearchParams(body) });
  }

  async signIn(identifier: string, password: string): Promise<Response> {
    const flow = await this.startLogin();
    return this.submitJson(flow, { method: 'password', identifier, password, csrf_token: csrfOf(flow) });
  }
}

export function csrfOf(flow: FlowBody): string {
  const node = flow.ui.nodes.find((candidate) => candidate.attributes.name === 'csrf_token');
  const value = node?.attributes.value;
  if (typeof value !== 'string') throw new Error('flow has no csrf_token node');
  return value;
}

export function cookieHeader(setCookies: readonly string[], name: string): string | undefined {
  return setCookies.find((header) => header.startsWith(`${name}=`));
}
