import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CatalogChange, CatalogChangesResponse } from '@opsdeck/shared';
import { readRequest, setupMswServer, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { CatalogChangesPage } from './catalog-changes-page';

const CONFIG_ID = '22222222-2222-4222-8222-222222222222';
const CHANGE_ID = '33333333-3333-4333-8333-333333333333';
const PERSON_ID = '44444444-4444-4444-8444-444444444444';
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

const change: CatalogChange = {
  id: CHANGE_ID,
  config_id: CONFIG_ID,
  name: 'checkout-api',
  type: 'Kubernetes::Deployment',
  config_class: 'Deployment',
  tags: { cluster: 'prod' },
  config_deleted_at: null,
  change_type: 'diff',
  severity: 'high',
  summary: 'image changed to nginx:1.27',
  source: 'kubernetes',
  count: 12,
  first_observed: hoursAgo(30),
  created_at: hoursAgo(2),
  created_by: PERSON_ID,
  external_created_by: null,
};

const DIFF = ['--- a/spec', '+++ b/spec', '@@ -1,2 +1,2 @@', ' replicas: 2', '-image: nginx:1.25', '+image: nginx:1.27'].join('\n');

let listResponse: () => Response = () => page([change], 1);
const bodies: Record<string, unknown>[] = [];
const cacheControls: Array<string | null> = [];
const detailRequests: RecordedRequest[] = [];

function page(changes: CatalogChange[], total: number, pageNumber = 1, pageSize = 200): Response {
  const body: CatalogChangesResponse = { changes, total, summary: { change_types: { diff: total }, severities: { high: total } }, page: pageNumber, page_size: pageSize };
  return HttpResponse.json(body);
}

setupMswServer(
  http.post('*/api/catalog/changes', async ({ request }) => {
    cacheControls.push(request.headers.get('cache-control'));
    bodies.push((await readRequest(request)).body as Record<string, unknown>);
    return listResponse();
  }),
  http.get('*/api/db/config_types', () => HttpResponse.json([{ type: 'Kubernetes::Deployment' }, { type: 'Kubernetes::Pod' }])),
  http.get('*/api/db/change_types', () => HttpResponse.json([{ change_type: 'diff' }, { change_type: 'Pulled' }])),
  http.get('*/api/db/config_tags', () => HttpResponse.json([{ key: 'cluster', value: 'prod' }])),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Grace Hopper', avatar: null }])),
  http.get('*/api/db/config_changes', async ({ request }) => {
    detailRequests.push(await readRequest(request));
    return HttpResponse.json([{ id: CHANGE_ID, diff: DIFF, details: { image: { from: 'nginx:1.25', to: 'nginx:1.27' } }, patches: '{"spec":{"replicas":3}}' }]);
  }),
);

function renderPage(path = '/catalog/changes') {
  bodies.length = 0;
  cacheControls.length = 0;
  detailRequests.length = 0;
  return renderRoutes([{ path: '/catalog/changes', element: <CatalogChangesPage /> }], path);
}

const lastBody = () => bodies.at(-1);

describe('Catalog changes page', () => {
  it('asks for the last 2 days, newest first, 200 a page and without deleted items by default', async () => {
    listResponse = () => page([change], 1);
    renderPage();
    await screen.findByText('checkout-api');
    expect(lastBody()).toEqual({ from: 'now-2d', to: 'now', include_deleted_configs: false, page: 1, page_size: 200, sort_by: '-created_at' });
    expect(screen.getByRole('button', { name: 'Time range: Last 2 days' })).toBeInTheDocument();
  });

  it('asks for counts made now with no-cache when Refresh is pressed, and shows what it answers', async () => {
    listResponse = () => page([change], 1);
    renderPage();
    await screen.findByText('checkout-api');
    expect(cacheControls).toEqual([null]);
    listResponse = () => page([change, { ...change, id: '55555555-5555-4555-8555-555555555555', name: 'payments-api' }], 2);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('payments-api');
    expect(cacheControls.at(-1)).toBe('no-cache');
    expect(lastBody()).toEqual(bodies[0]);
  });

  it('sends every filter of the query string, tags as a selector', async () => {
    listResponse = () => page([change], 1);
    const query = new URLSearchParams({
      configTypes: 'Kubernetes::Pod:1,AWS::EC2::Instance:-1',
      changeType: 'diff:1,Pulled:-1',
      severity: 'high:1,info:-1',
      tags: 'cluster____prod:1,namespace____kube-system:-1',
      source: 'kubernetes,!aws',
      external_created_by: 'alice',
      id: CONFIG_ID,
      summary: 'image',
      created_by: PERSON_ID,
      from: 'now-1w',
      page: '2',
      pageSize: '50',
      sortBy: 'count',
      sortDirection: 'asc',
    });
    renderPage(`/catalog/changes?${query.toString()}`);
    await waitFor(() => expect(bodies.length).toBeGreaterThan(0));
    expect(lastBody()).toEqual({
      config_type: 'Kubernetes::Pod,!AWS::EC2::Instance',
      change_type: 'diff,!Pulled',
      severity: 'high,!info',
      tags: 'cluster=prod,namespace!=kube-system',
      source: 'kubernetes,!aws',
      external_created_by: 'alice',
      id: CONFIG_ID,
      summary: 'image',
      created_by: PERSON_ID,
      from: 'now-1w',
      to: 'now',
      include_deleted_configs: false,
      page: 2,
      page_size: 50,
      sort_by: 'count',
    });
  });

  it('sends the two ends of a quick range as they are', async () => {
    renderPage('/catalog/changes?from=now-1d%2Fd&to=now-1d%2Fd');
    await waitFor(() => expect(bodies.length).toBeGreaterThan(0));
    expect(lastBody()).toMatchObject({ from: 'now-1d/d', to: 'now-1d/d' });
    expect(screen.getByRole('button', { name: 'Time range: Yesterday' })).toBeInTheDocument();
  });

  it('shows how often a folded change was seen and when it was first observed', async () => {
    listResponse = () => page([change], 1);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Config changes' });
    const row = (await within(table).findByText('checkout-api')).closest('tr');
    if (row === null) throw new Error('no row');
    expect(within(row).getByLabelText('12 sightings')).toBeInTheDocument();
    expect(within(row).getByText('1d')).toBeInTheDocument();
    expect(within(row).getByText('2h')).toBeInTheDocument();
    expect(await within(row).findByText('Grace Hopper')).toBeInTheDocument();
  });

  it('keeps a severity chosen on the page in the URL, asks for it and goes back to page 1', async () => {
    listResponse = () => page([change], 1);
    const { router } = renderPage('/catalog/changes?page=3');
    await screen.findByText('checkout-api');
    await userEvent.click(within(screen.getByRole('group', { name: 'Filters' })).getByRole('button', { name: /^Severity/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Exclude info' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('severity')).toBe('info:-1'));
    expect(new URLSearchParams(router.state.location.search).has('page')).toBe(false);
    await waitFor(() => expect(lastBody()).toMatchObject({ severity: '!info', page: 1 }));
  });

  it('searches the summary after typing stops and keeps it in the URL', async () => {
    const { router } = renderPage();
    await waitFor(() => expect(bodies).toHaveLength(1));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Summary' }), { target: { value: 'nginx' } });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('summary')).toBe('nginx'));
    await waitFor(() => expect(lastBody()).toMatchObject({ summary: 'nginx' }));
  });

  it('pages through the server and sorts by the column clicked', async () => {
    listResponse = () => page([change], 450);
    const { router } = renderPage();
    await screen.findByText('checkout-api');
    expect(screen.getByText('450 items')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastBody()).toMatchObject({ page: 2, page_size: 200 }));
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    await userEvent.click(screen.getByRole('button', { name: 'Count' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('sortBy')).toBe('count'));
    expect(lastBody()).toMatchObject({ page: 1 });
    expect(String(lastBody()?.sort_by)).toMatch(/^-?count$/);
  });

  it('includes changes of deleted items once Hide deleted is turned off, and remembers it', async () => {
    renderPage();
    await waitFor(() => expect(bodies).toHaveLength(1));
    await userEvent.click(screen.getByRole('switch', { name: 'Hide deleted' }));
    await waitFor(() => expect(lastBody()).toMatchObject({ include_deleted_configs: true }));
    expect(localStorage.getItem('hideDeletedConfigChanges')).toBe('no');
  });

  it('opens a change with its coloured diff, details and patches, and closes on Escape', async () => {
    listResponse = () => page([change], 1);
    renderPage();
    const cell = await screen.findByText('checkout-api');
    await userEvent.click(cell);
    const dialog = await screen.findByRole('dialog', { name: 'diff: checkout-api' });
    const diff = await within(dialog).findByRole('table', { name: 'Change diff' });
    expect(detailRequests[0]?.url.searchParams.get('id')).toBe(`eq.${CHANGE_ID}`);
    expect(detailRequests[0]?.url.searchParams.get('select')).toBe('id,diff,details,patches');
    expect(within(diff).getByText('+image: nginx:1.27').closest('tr')).toHaveAttribute('data-kind', 'added');
    expect(within(diff).getByText('-image: nginx:1.25').closest('tr')).toHaveAttribute('data-kind', 'removed');
    expect(within(within(dialog).getByRole('region', { name: 'Details' })).getByText(/"to": "nginx:1.27"/)).toBeInTheDocument();
    expect(within(within(dialog).getByRole('region', { name: 'Patches' })).getByText(/"replicas": 3/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'checkout-api' })).toHaveAttribute('href', `/catalog/${CONFIG_ID}`);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's 400 in place of the table", async () => {
    listResponse = () => HttpResponse.json({ code: 'OD_VALIDATION', message: '/id must be a uuid' }, { status: 400 });
    renderPage('/catalog/changes?id=not-a-uuid');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Changes could not be loaded: /id must be a uuid');
    expect(screen.queryByRole('table', { name: 'Config changes' })).not.toBeInTheDocument();
  });

  it('says so when no change matches', async () => {
    listResponse = () => page([], 0);
    renderPage();
    expect(await screen.findByText('No changes match these filters in this time range')).toBeInTheDocument();
  });
});
