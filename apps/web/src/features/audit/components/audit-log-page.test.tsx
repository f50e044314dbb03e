import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { AuditEntry } from '../api/get-audit-log';
import { AuditLogPage, EMPTY_AUDIT_MESSAGE } from './audit-log-page';

const ADA = '0b6f1c1e-3b7a-4f4c-9d55-6d2f3e9a1c01';

function entry(id: string, overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id,
    at: new Date().toISOString(),
    actor_id: ADA,
    actor_name: 'Ada Admin',
    via: 'session',
    api_token_id: null,
    method: 'POST',
    route: '/api/db/:relation',
    resource: 'teams',
    resource_id: 'team-1',
    resource_ids: ['team-1'],
    action: 'create',
    changed_fields: ['name', 'icon'],
    changes: { name: 'Payments', icon: 'shield' },
    status: 201,
    ...overrides,
  };
}

const CREATED = entry('a1', {});
const BY_TOKEN = entry('a2', {
  via: 'api_token',
  action: 'update',
  method: 'PATCH',
  route: '/api/canary/connections/:id',
  resource: 'connections',
  changed_fields: ['password'],
  changes: {},
});

let requests: URL[] = [];
let answer: () => Response = () => HttpResponse.json([CREATED, BY_TOKEN], { headers: { 'Content-Range': '0-1/2' } });

setupMswServer(
  http.get('*/api/db/audit_log', ({ request }) => {
    requests.push(new URL(request.url));
    return answer();
  }),
);

afterEach(() => {
  requests = [];
  answer = () => HttpResponse.json([CREATED, BY_TOKEN], { headers: { 'Content-Range': '0-1/2' } });
});

function renderPage(search = '') {
  return renderRoutes([{ path: '/settings/audit', element: <AuditLogPage /> }], `/settings/audit${search}`);
}

const lastRequest = () => requests.at(-1)?.searchParams ?? new URLSearchParams();

describe('Audit Log page', () => {
  it('lists who wrote what, newest first, a token’s writes marked, over the last 7 days by default', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(await within(table).findAllByText('Ada Admin')).toHaveLength(2);
    expect(within(table).getByText('API token')).toBeInTheDocument();
    expect(within(table).getByText('password')).toBeInTheDocument();
    expect(lastRequest().get('order')).toBe('at.desc,id.desc');
    const since = Date.parse(lastRequest().get('at')?.replace(/^gte\./, '') ?? '');
    expect((Date.now() - since) / 86_400_000).toBeCloseTo(7, 1);
  });

  it('keeps the filters in the URL and sends each to the server', async () => {
    const user = userEvent.setup();
    const { router } = renderPage();
    await screen.findByRole('table', { name: 'Audit log' });

    await user.type(screen.getByRole('searchbox', { name: 'Filter by resource' }), 'connections');
    await waitFor(() => expect(lastRequest().get('resource')).toBe('eq.connections'));
    await user.type(screen.getByRole('searchbox', { name: 'Filter by actor' }), 'ada');
    await waitFor(() => expect(lastRequest().get('actor_name')).toBe('ilike.*ada*'));
    expect(router.state.location.search).toContain('resource=connections');
    expect(router.state.location.search).toContain('actor=ada');
  });

  it('filters by a person’s id when their name is clicked, and reads the filters from a link', async () => {
    const user = userEvent.setup();
    const { router } = renderPage('?action=update&page=1');
    await screen.findByRole('table', { name: 'Audit log' });
    expect(lastRequest().get('action')).toBe('eq.update');
    await user.click((await screen.findAllByRole('button', { name: 'Ada Admin' }))[0] as HTMLElement);
    await waitFor(() => expect(lastRequest().get('actor_id')).toBe(`eq.${ADA}`));
    expect(router.state.location.search).toContain(`actor=${ADA}`);
  });

  it('opens an entry’s details with its changed fields and values', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByText('teams'));
    const dialog = await screen.findByRole('dialog', { name: 'Audit entry' });
    expect(dialog).toHaveTextContent('"name": "Payments"');
    expect(dialog).toHaveTextContent('POST /api/db/:relation → 201');
  });

  it('says when nothing matches, and shows a failure with a retry', async () => {
    answer = () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } });
    const { unmount } = renderPage('?resource=nothing');
    expect(await screen.findByText(EMPTY_AUDIT_MESSAGE)).toBeInTheDocument();
    unmount();
    answer = () => HttpResponse.json({ code: 'PGRST301', message: 'permission denied for table audit_log', details: null, hint: null }, { status: 403 });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getByText(/permission denied for table audit_log/)).toBeInTheDocument();
  });
});
