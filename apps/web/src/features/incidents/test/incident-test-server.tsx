import type { ReactNode } from 'react';
import { afterEach } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import { http, HttpResponse, type JsonBodyType, type RequestHandler } from 'msw';
import type { SetupServer } from 'msw/node';
import { TEST_PERSON, readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type { Evidence, Hypothesis, IncidentDetail } from '../api/types';

export const PERSON_ID = TEST_PERSON.id;
export const INCIDENT_ID = '22222222-2222-4222-8222-222222222222';
export const ROOT_ID = '33333333-3333-4333-8333-333333333333';
export const EVIDENCE_ID = '44444444-4444-4444-8444-444444444444';

export interface Recorded extends RecordedRequest {
  /** When the request arrived, for checking debounce delays as lower bounds that hold on a slow machine. */
  at: number;
}

/** Mutable per-test state the handlers read; put back after each test by `setupIncidentServer`. */
export const state = {
  roles: ['responder'] as string[],
  recorded: [] as Recorded[],
  /** Answers for GET /api/db/{table}, by table. */
  tables: {} as Record<string, () => Response>,
  /** Answers for writes, by `${METHOD} ${table}`; a promise holds the answer back, e.g. to see an optimistic update. */
  writes: {} as Record<string, () => Response | Promise<Response>>,
  validate: (): Response => HttpResponse.json({ valid: true }),
};

export function json(body: JsonBodyType, init?: ResponseInit): Response {
  return HttpResponse.json(body, init);
}

export function failure(message: string, status = 400): Response {
  return HttpResponse.json({ code: 'P0001', message, details: null, hint: null }, { status });
}

async function record(request: Request): Promise<void> {
  state.recorded.push({ ...(await readRequest(request)), at: Date.now() });
}

const handlers: RequestHandler[] = [
  whoamiHandler(() => state.roles, { ...TEST_PERSON, name: 'Rey Responder' }),
  http.get('*/api/db/:table', async ({ request, params }) => {
    await record(request);
    return state.tables[String(params.table)]?.() ?? HttpResponse.json([]);
  }),
  ...(['post', 'patch', 'delete'] as const).map((method) =>
    http[method]('*/api/db/:table', async ({ request, params }) => {
      await record(request);
      const answer = state.writes[`${request.method} ${String(params.table)}`];
      if (answer) return answer();
      return method === 'post' ? HttpResponse.json([], { status: 201 }) : new HttpResponse(null, { status: 204 });
    }),
  ),
  http.delete('*/api/hypotheses/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ hypotheses: 1, evidences: 0, comments: 0 });
  }),
  http.post('*/api/incidents/definition-of-done/validate', async ({ request }) => {
    await record(request);
    return state.validate();
  }),
  http.post('*/api/resources/search', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ checks: [], components: [{ id: 'c1', name: 'payments-api', icon: null, type: 'service', status: 'healthy' }], configs: [] });
  }),
];

function resetState(): void {
  state.roles = ['responder'];
  state.recorded = [];
  state.tables = {};
  state.writes = {};
  state.validate = () => HttpResponse.json({ valid: true });
}

/**
 * The incidents mock API for one test file, signed in as a responder, its `state` put back after each test. How long
 * async queries are waited for is the web suite's setting (test/setup.ts).
 */
export function setupIncidentServer(): SetupServer {
  afterEach(resetState);
  return setupMswServer(...handlers);
}

export function requests(method: string, table: string): Recorded[] {
  return state.recorded.filter((request) => request.method === method && request.url.pathname.endsWith(`/${table}`));
}

export function evidenceFixture(overrides: Partial<Evidence> = {}): Evidence {
  return {
    id: EVIDENCE_ID,
    hypothesis_id: ROOT_ID,
    type: 'check',
    description: 'Checkout latency check',
    definition_of_done: false,
    done: false,
    script: null,
    evidence: null,
    properties: {},
    config_id: null,
    config_analysis_id: null,
    config_change_id: null,
    component_id: null,
    check_id: '55555555-5555-4555-8555-555555555555',
    alert_id: null,
    created_by: PERSON_ID,
    created_at: '2024-03-01T10:05:00Z',
    creator: null,
    check: { id: '55555555-5555-4555-8555-555555555555', name: 'checkout-latency', icon: null, type: 'http', status: 'unhealthy', canary_id: 'x' },
    config: null,
    component: null,
    config_analysis: null,
    config_change: null,
    alert: null,
    ...overrides,
  };
}

export function hypothesisFixture(overrides: Partial<Hypothesis> = {}): Hypothesis {
  return {
    id: ROOT_ID,
    incident_id: INCIDENT_ID,
    parent_id: null,
    title: 'Checkout is slow',
    type: 'root',
    status: 'possible',
    created_by: PERSON_ID,
    created_at: '2024-03-01T10:00:00Z',
    evidences: [],
    ...overrides,
  };
}

export function incidentFixture(overrides: Partial<IncidentDetail> = {}): IncidentDetail {
  return {
    id: INCIDENT_ID,
    incident_id: 'INC-7',
    title: 'Checkout is slow',
    description: null,
    type: 'availability',
    severity: 'low',
    status: 'open',
    created_by: PERSON_ID,
    commander_id: PERSON_ID,
    communicator_id: PERSON_ID,
    created_at: '2024-03-01T10:00:00Z',
    updated_at: '2024-03-01T10:00:00Z',
    creator: { id: PERSON_ID, name: 'Rey Responder', avatar: null },
    commander: { id: PERSON_ID, name: 'Rey Responder', avatar: null },
    communicator: null,
    hypotheses: [hypothesisFixture()],
    comments: [],
    ...overrides,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders `element` at `path` where `routePattern` matches, with the toaster and a probe showing the current URL. */
export function renderAt(path: string, routePattern: string, element: ReactNode) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path={routePattern} element={element} />
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { path, toaster: true },
  );
}
