import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { PlaybookRunRow } from '../../api/get-playbook-runs';
import { PlaybookRunsPage } from './playbook-runs-page';

const PLAYBOOK_ID = '10000000-0000-4000-8000-000000000001';
const OTHER_PLAYBOOK_ID = '10000000-0000-4000-8000-000000000002';
const CONFIG_ID = '20000000-0000-4000-8000-000000000001';
const CHECK_ID = '30000000-0000-4000-8000-000000000001';
const PERSON_ID = '40000000-0000-4000-8000-000000000001';
const RUN_ID = '50000000-0000-4000-8000-000000000001';
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function runRow(overrides: Partial<PlaybookRunRow> = {}): PlaybookRunRow {
  return {
    id: RUN_ID,
    status: 'completed',
    playbook_id: PLAYBOOK_ID,
    config_id: CONFIG_ID,
    component_id: null,
    check_id: null,
    created_at: minutesAgo(10),
    start_time: minutesAgo(9),
    end_time: new Date(Date.parse(minutesAgo(9)) + 65_000).toISOString(),
    scheduled_time: minutesAgo(10),
    created_by: PERSON_ID,
    error: null,
    playbooks: { id: PLAYBOOK_ID, name: 'restart-pod', title: 'Restart pod', icon: null },
    ...overrides,
  };
}

let runs: PlaybookRunRow[] = [runRow()];
let total = 1;
let runRequests: RecordedRequest[] = [];
let lookups: string[] = [];
let preferHeaders: (string | null)[] = [];

const server = setupMswServer(
  whoamiHandler(() => ['editor']),
  http.get('*/api/db/playbook_runs', async ({ request }) => {
    preferHeaders.push(request.headers.get('prefer'));
    runRequests.push(await readRequest(request));
    const last = runs.length === 0 ? '*' : `0-${runs.length - 1}`;
    return HttpResponse.json(runs, { headers: { 'Content-Range': `${last}/${total}` } });
  }),
  http.get('*/api/db/playbooks', () =>
    HttpResponse.json([
      { id: PLAYBOOK_ID, name: 'restart-pod', title: 'Restart pod' },
      { id: OTHER_PLAYBOOK_ID, name: 'drain-node', title: null },
    ]),
  ),
  http.get('*/api/db/config_items', ({ request }) => {
    lookups.push(new URL(request.url).pathname.split('/').at(-1) ?? '');
    return HttpResponse.json([{ id: CONFIG_ID, name: 'checkout-api' }]);
  }),
  http.get('*/api/db/checks', ({ request }) => {
    lookups.push(new URL(request.url).pathname.split('/').at(-1) ?? '');
    return HttpResponse.json([{ id: CHECK_ID, name: 'http-checkout' }]);
  }),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Grace Hopper', avatar: null }])),
);

afterEach(() => {
  runs = [runRow()];
  total = 1;
  runRequests = [];
  lookups = [];
  preferHeaders = [];
});

function renderPage(path = '/playbooks/runs') {
  return renderRoutes(
    [
      { path: '/playbooks/runs', element: <PlaybookRunsPage /> },
      { path: '/playbooks/runs/:id', element: <p>Run page</p> },
      { path: '/catalog/:id', element: <p>Catalog page</p> },
    ],
    path,
  );
}

/** The playbook cell of the first row, once the rows have loaded. */
async function findRunCell(): Promise<HTMLElement> {
  return within(await screen.findByRole('table', { name: 'Playbook runs' })).findByText('Restart pod');
}

const lastQuery = () => runRequests.at(-1)?.url.searchParams;

describe('Playbook runs page', () => {
  it('asks for the newest runs of the last 7 days, 150 to a page with an exact count', async () => {
    const before = Date.now();
    renderPage();
    await findRunCell();
    const query = lastQuery();
    expect(query?.get('select')).toBe(
      'id,status,playbook_id,config_id,component_id,check_id,created_at,start_time,end_time,scheduled_time,created_by,error,playbooks(id,name,title,icon)',
    );
    expect(query?.get('order')).toBe('created_at.desc');
    expect(query?.get('limit')).toBe('150');
    expect(query?.get('offset')).toBe('0');
    expect(preferHeaders.at(-1)).toContain('count=exact');
    expect(query?.has('status')).toBe(false);
    expect(query?.has('playbook_id')).toBe(false);
    const from = Date.parse((query?.get('created_at') ?? '').replace(/^gte\./, ''));
    expect(before - from).toBeGreaterThanOrEqual(7 * 86_400_000 - 60_000);
    expect(before - from).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
    expect(screen.getByRole('button', { name: 'Time range: Last 1 week' })).toBeInTheDocument();
  });

  it('sends the playbook, status, time range and page of the URL', async () => {
    renderPage(`/playbooks/runs?playbook=${PLAYBOOK_ID}&status=failed&from=now-1d&page=3`);
    await findRunCell();
    const query = lastQuery();
    expect(query?.get('playbook_id')).toBe(`eq.${PLAYBOOK_ID}`);
    expect(query?.get('status')).toBe('eq.failed');
    expect(query?.get('offset')).toBe('300');
    expect(query?.get('limit')).toBe('150');
    const from = Date.parse((query?.get('created_at') ?? '').replace(/^gte\./, ''));
    expect(Math.abs(Date.now() - from - 86_400_000)).toBeLessThan(60_000);
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('Failed');
    expect(screen.getByRole('combobox', { name: 'Playbook' })).toHaveTextContent('Restart pod');
  });

  it('bounds an absolute range at both ends', async () => {
    renderPage('/playbooks/runs?from=2026-01-01T00:00:00.000Z&to=2026-01-02T00:00:00.000Z');
    await findRunCell();
    expect(lastQuery()?.getAll('created_at')).toEqual(['gte.2026-01-01T00:00:00.000Z', 'lte.2026-01-02T00:00:00.000Z']);
  });

  it('keeps a status chosen on the page in the URL and goes back to the first page', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderPage('/playbooks/runs?page=2');
    await findRunCell();
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Waiting' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=waiting'));
    await waitFor(() => expect(lastQuery()?.get('status')).toBe('eq.waiting'));
    expect(lastQuery()?.get('offset')).toBe('0');
  });

  it('keeps a playbook chosen on the page in the URL', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderPage();
    await findRunCell();
    await user.click(screen.getByRole('combobox', { name: 'Playbook' }));
    await user.click(await screen.findByRole('option', { name: 'drain-node' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?playbook=${OTHER_PLAYBOOK_ID}`));
    await waitFor(() => expect(lastQuery()?.get('playbook_id')).toBe(`eq.${OTHER_PLAYBOOK_ID}`));
  });

  it('pages at 150 rows and writes the page to the URL', async () => {
    total = 320;
    const user = userEvent.setup({ delay: null });
    const { router } = renderPage();
    await screen.findByText('320 items');
    expect(screen.getByText('of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(lastQuery()?.get('offset')).toBe('150'));
  });

  it('shows the status, the resource by name, how long it took and who triggered it', async () => {
    runs = [runRow(), runRow({ id: '50000000-0000-4000-8000-000000000002', status: 'failed', config_id: null, check_id: CHECK_ID, created_by: null })];
    total = 2;
    renderPage();
    const table = await screen.findByRole('table', { name: 'Playbook runs' });
    await within(table).findAllByText('Restart pod');
    const [first, second] = within(table).getAllByRole('row').slice(1);
    if (first === undefined || second === undefined) throw new Error('rows missing');
    expect(within(first).getByText('Completed')).toBeInTheDocument();
    expect(await within(first).findByRole('link', { name: 'checkout-api' })).toHaveAttribute('href', `/catalog/${CONFIG_ID}`);
    expect(within(first).getByText('1m 5s')).toBeInTheDocument();
    expect(await within(first).findByText('Grace Hopper')).toBeInTheDocument();
    expect(within(second).getByText('Failed')).toBeInTheDocument();
    expect(await within(second).findByRole('link', { name: 'http-checkout' })).toHaveAttribute('href', `/health?checkId=${CHECK_ID}`);
    // One lookup per type of target for the rows on screen.
    expect(lookups.sort()).toEqual(['checks', 'config_items']);
  });

  it('opens a run from its row, and the resource from its link', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderPage();
    await user.click(await findRunCell());
    await waitFor(() => expect(router.state.location.pathname).toBe(`/playbooks/runs/${RUN_ID}`));
    await router.navigate('/playbooks/runs');
    await user.click(await screen.findByRole('link', { name: 'checkout-api' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/catalog/${CONFIG_ID}`));
  });

  it("says 'No playbook runs' when none match", async () => {
    runs = [];
    total = 0;
    renderPage();
    expect(await screen.findByText('No playbook runs')).toBeInTheDocument();
  });

  it('ignores a status the runs cannot have', async () => {
    renderPage('/playbooks/runs?status=bogus');
    await findRunCell();
    expect(lastQuery()?.has('status')).toBe(false);
  });

  it('shows the server message when the list cannot be read', async () => {
    server.use(
      http.get('*/api/db/playbook_runs', () =>
        HttpResponse.json({ code: '42501', message: 'permission denied for table playbook_runs', details: null, hint: null }, { status: 403 }),
      ),
    );
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Playbook runs could not be loaded: permission denied for table playbook_runs');
  });
});
