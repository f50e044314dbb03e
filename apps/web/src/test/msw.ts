import { afterAll, afterEach, beforeAll } from 'vitest';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';

/**
 * The mock API of one test file: it listens before the first test, drops the handlers a test added with
 * `server.use` after each one, and closes after the last. A request no handler answers fails the test, so a page
 * that starts calling a new endpoint is noticed.
 */
export function setupMswServer(...handlers: RequestHandler[]): SetupServer {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export interface SessionPerson {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

export const TEST_PERSON: SessionPerson = { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Lovelace', email: null, avatar: null };

/** The signed-in session the permission checks read; `roles` is called per request so a test can change them. */
export function whoamiHandler(roles: () => readonly string[], person: SessionPerson = TEST_PERSON) {
  return http.get('*/api/auth/sessions/whoami', () =>
    HttpResponse.json({ id: 's1', active: true, identity: { id: person.id, traits: {} }, person, roles: roles() }),
  );
}

export interface RecordedRequest {
  method: string;
  url: URL;
  /** The parsed JSON body, or null when there is none. */
  body: unknown;
}

/** What a handler received, for asserting what the page sent. */
export async function readRequest(request: Request): Promise<RecordedRequest> {
  const text = await request.text();
  return { method: request.method, url: new URL(request.url), body: text === '' ? null : (JSON.parse(text) as unknown) };
}

export type AuthModeName = 'self-hosted' | 'hosted';

/** GET /api/auth/mode, which the shell reads to hide the built-in identity pages (Users) in hosted mode. */
export function authModeHandler(mode: () => AuthModeName = () => 'self-hosted') {
  return http.get('*/api/auth/mode', () =>
    HttpResponse.json(mode() === 'hosted' ? { mode: 'hosted', provider_name: 'Example ID', registration_enabled: false } : { mode: 'self-hosted', registration_enabled: false }),
  );
}
