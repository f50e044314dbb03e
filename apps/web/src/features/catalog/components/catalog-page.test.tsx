import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import type { CatalogSummaryRow } from '@opsdeck/shared';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type { ConfigListItem } from '../api/types';
import { CatalogPage } from './catalog-page';

const NOW = Date.now();
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function makeSummaryRow(overrides: Partial<CatalogSummaryRow>): CatalogSummaryRow {
  return {
    config_class: 'Pod',
    type: 'Kubernetes::Pod',
    tags: {},
    labels: {},
    count: 3,
    deleted: 0,
    health: { healthy: 2, unhealthy: 1, warning: 0, unknown: 0 },
    changes: 4,
    analysis: { security: 1 },
    analysis_by_severity: { high: 1 },
    cost: 4.5,
    cost_total_1d: 0.15,
    cost_total_7d: 1.05,
    cost_total_30d: 4.5,
    created_at: minutesAgo(60 * 24 * 10),
    updated_at: minutesAgo(30),
    ...overrides,
  };
}

function makeItem(overrides: Partial<ConfigListItem>): ConfigListItem {
  return {
    id: 'c0000000-0000-4000-8000-000000000001',
    name: 'api-7d9f',
    type: 'Kubernetes::Pod',
    config_class: 'Pod',
    status: 'Running',
    health: 'healthy',
    labels: { app: 'api' },
    tags: { cluster: 'prod-eks' },
    created_at: minutesAgo(60 * 24 * 3),
    updated_at: minutesAgo(10),
    deleted_at: null,
    last_scraped_time: minutesAgo(4),
    cost_total_1d: 2,
    cost_total_7d: 7,
    cost_total_30d: 30,
    changes: 12,
    analysis: { security: 2 },
    agent: { id: 'a0000000-0000-4000-8000-000000000001', name: 'local' },
    ...overrides,
  };
}

let summaryRequests: RecordedRequest[] = [];
let summaryCacheControl: (string | null)[] = [];
let configRequests: URL[] = [];
let summaryResponse: () => Response = () => HttpResponse.json([]);
let configsResponse: () => Response = () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } });

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('*/api/db/config_types', () => HttpResponse.json([{ type: 'Kubernetes::Pod', config_class: 'Pod' }])),
  http.get('*/api/db/config_statuses', () => HttpResponse.json([{ status: 'Running' }, { status: 'Pending' }])),
  http.get('*/api/db/config_tags', () => HttpResponse.json([{ key: 'cluster', value: 'prod-eks' }])),
  http.get('*/api/db/config_labels', () => HttpResponse.json([{ key: 'app', value: 'api' }])),
  http.post('*/api/catalog/summary', async ({ request }) => {
    summaryCacheControl.push(request.headers.get('cache-control'));
    summaryRequests.push(await readRequest(request));
    return summaryResponse();
  }),
  http.get('*/api/db/configs', ({ request }) => {
    configRequests.push(new URL(request.url));
    return configsResponse();
  }),
  http.get('*/api/db/rpc/search_configs', ({ request }) => {
    configRequests.push(new URL(request.url));
    return configsResponse();
  }),
);

afterEach(() => {
  summaryRequests = [];
  summaryCacheControl = [];
  configRequests = [];
  summaryResponse = () => HttpResponse.json([]);
  configsResponse = () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } });
});

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderCatalog(url = '/catalog') {
  return renderWithProviders(
    <Routes>
      <Route
        path="/catalog"
        element={
          <>
            <CatalogPage />
            <LocationProbe />
          </>
        }
      />
      <Route path="/catalog/:id" element={<LocationProbe />} />
    </Routes>,
    { path: url, toaster: true },
  );
}

const currentUrl = () => new URL(screen.getByTestId('location').textContent ?? '', 'http://localhost');
const lastConfigs = (): URL => {
  const url = configRequests.at(-1);
  if (url === undefined) throw new Error('the configs view was not called');
  return url;
};
const respondWithItems = (items: ConfigListItem[]) => {
  configsResponse = () => HttpResponse.json(items, { headers: { 'Content-Range': `0-${items.length - 1}/${items.length}` } });
};

describe('Catalog page', () => {
  it('asks the server for a summary computed now when Refresh summary is pressed, and shows it', async () => {
    summaryResponse = () => HttpResponse.json([makeSummaryRow({ count: 3 })]);
    renderCatalog();
    const table = await screen.findByRole('table', { name: 'Catalog summary' });
    expect(await screen.findByText('1 group')).toBeInTheDocument();
    expect(summaryCacheControl).toEqual([null]);
    summaryResponse = () => HttpResponse.json([makeSummaryRow({ count: 7 }), makeSummaryRow({ type: 'Kubernetes::Node', config_class: 'Node' })]);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh summary' }));
    expect(await screen.findByText('2 groups')).toBeInTheDocument();
    expect(within(table).getByText('Kubernetes::Node')).toBeInTheDocument();
    expect(summaryCacheControl).toEqual([null, 'no-cache']);
  });

  it('shows the grouped summary by class and type, counting, costing and sorting in the server', async () => {
    summaryResponse = () =>
      HttpResponse.json([
        makeSummaryRow({}),
        makeSummaryRow({ config_class: 'Node', type: 'Kubernetes::Node', count: 1500, changes: 620, cost_total_30d: 1234.5, cost_total_1d: 60 }),
      ]);
    renderCatalog();
    const table = await screen.findByRole('table', { name: 'Catalog summary' });
    expect(await within(table).findByText('Kubernetes::Node')).toBeInTheDocument();
    for (const header of ['Class', 'Type', 'Count', 'Health', 'Changes', 'Insights', 'Cost (30d)', 'Updated']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(summaryRequests[0]?.body).toMatchObject({ groupBy: ['config_class', 'type'], deleted: false, sortBy: 'type', sortOrder: 'asc', filter: {} });
    const many = within(table).getByLabelText('1500 items');
    expect(many).toHaveTextContent('1k+');
    expect(many).toHaveAttribute('data-highlighted', 'true');
    expect(within(table).getByLabelText('620 changes')).toHaveAttribute('data-highlighted', 'true');
    expect(within(table).getByLabelText('3 items')).toHaveAttribute('data-highlighted', 'false');
    expect(within(table).getByText('$4.50')).toBeInTheDocument();
    expect(within(table).getByText('$1,235')).toBeInTheDocument();
    // 60 a day against 1234.5 / 30 ≈ 41.15 a day is 46 % up.
    expect(within(table).getByText('+46%')).toBeInTheDocument();
    expect(configRequests).toHaveLength(0);
  });

  it('groups by a tag and sorts by a measure from the header, all in the URL', async () => {
    const user = userEvent.setup();
    summaryResponse = () => HttpResponse.json([makeSummaryRow({ tags: { cluster: 'prod-eks' } })]);
    renderCatalog('/catalog?groupBy=cluster__tag,type');
    const table = await screen.findByRole('table', { name: 'Catalog summary' });
    expect(await within(table).findByText('prod-eks')).toBeInTheDocument();
    expect(summaryRequests.at(-1)?.body).toMatchObject({ groupBy: ['cluster__tag', 'type'], sortBy: 'type' });
    await user.click(within(table).getByRole('button', { name: 'Count' }));
    await waitFor(() => expect(summaryRequests.at(-1)?.body).toMatchObject({ sortBy: 'count', sortOrder: 'asc' }));
    expect(currentUrl().searchParams.get('sortBy')).toBe('count');
    await user.click(within(table).getByRole('button', { name: 'Count' }));
    await waitFor(() => expect(summaryRequests.at(-1)?.body).toMatchObject({ sortBy: 'count', sortOrder: 'desc' }));
    expect(currentUrl().searchParams.get('sortOrder')).toBe('desc');
  });

  it('turns columns off and on from Columns and keeps the choice', async () => {
    const user = userEvent.setup();
    respondWithItems([makeItem({})]);
    renderCatalog('/catalog?configType=Kubernetes::Pod');
    const items = await screen.findByRole('table', { name: 'Catalog items' });
    expect(await within(items).findByText('api-7d9f')).toBeInTheDocument();
    expect(within(items).getByRole('columnheader', { name: 'Type' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('dialog', { name: 'Columns' });
    await user.click(within(chooser).getByRole('checkbox', { name: 'Type' }));
    expect(within(items).queryByRole('columnheader', { name: 'Type' })).not.toBeInTheDocument();
    expect(localStorage.getItem('catalog.table.columns') ?? '').toContain('"hidden":["type"]');
    await user.click(within(chooser).getByRole('button', { name: 'Reset to fit the width' }));
    expect(within(items).getByRole('columnheader', { name: 'Type' })).toBeInTheDocument();
  });

  it('tells same-named items apart by the namespace and cluster shown beside their names', async () => {
    respondWithItems([
      makeItem({ id: 'c0000000-0000-4000-8000-000000000011', name: 'cart', tags: { namespace: 'shop', cluster: 'eu-1' } }),
      makeItem({ id: 'c0000000-0000-4000-8000-000000000012', name: 'cart', tags: { namespace: 'shop', cluster: 'us-1' } }),
    ]);
    renderCatalog('/catalog?configType=Kubernetes::Pod');
    const items = await screen.findByRole('table', { name: 'Catalog items' });
    await within(items).findAllByText('cart');
    expect(within(items).getByText('shop · eu-1')).toBeInTheDocument();
    expect(within(items).getByText('shop · us-1')).toBeInTheDocument();
    expect(within(items).getAllByTitle(/^cart \(shop · /)).toHaveLength(2);
  });

  it('opens a group from the summary: sets configType and labels, clears groupBy and lists the items', async () => {
    const user = userEvent.setup();
    summaryResponse = () => HttpResponse.json([makeSummaryRow({ config_class: undefined, labels: { app: 'api' } })]);
    respondWithItems([makeItem({})]);
    renderCatalog('/catalog?groupBy=type,app__label&sortBy=count');
    const summary = await screen.findByRole('table', { name: 'Catalog summary' });
    await user.click(await within(summary).findByText('Kubernetes::Pod'));

    const items = await screen.findByRole('table', { name: 'Catalog items' });
    expect(await within(items).findByText('api-7d9f')).toBeInTheDocument();
    const params = currentUrl().searchParams;
    expect(params.get('configType')).toBe('Kubernetes::Pod');
    expect(params.get('labels')).toBe('app__:__api');
    expect(params.has('groupBy')).toBe(false);
    // count sorts groups, not items: the flat table falls back to its default, type.
    expect(params.has('sortBy')).toBe(false);
    const request = lastConfigs().searchParams;
    expect(request.get('type')).toBe('eq.Kubernetes::Pod');
    expect(request.get('labels')).toBe('cs.{"app":"api"}');
    expect(request.get('order')).toBe('type.asc,name.asc,id.asc');
    for (const header of ['Name', 'Type', 'Status', 'Health', 'Labels', 'Tags', 'Changes', 'Insights', 'Cost (1d)', 'Cost (7d)', 'Cost (30d)', 'Agent', 'Created', 'Updated']) {
      expect(within(items).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }

    await user.click(within(items).getByText('api-7d9f'));
    expect(currentUrl().pathname).toBe('/catalog/c0000000-0000-4000-8000-000000000001');
  });

  it('sends the flat-table filters of the URL to the data API and keeps a debounced search in the URL', async () => {
    const user = userEvent.setup();
    respondWithItems([makeItem({})]);
    renderCatalog('/catalog?configType=Kubernetes::Pod&tags=cluster____prod-eks:1,env____dev:-1&health=healthy:1&status=Pending:-1&sortBy=name&sortOrder=desc');
    const items = await screen.findByRole('table', { name: 'Catalog items' });
    expect(await within(items).findByText('api-7d9f')).toBeInTheDocument();
    const request = lastConfigs().searchParams;
    expect(request.get('type')).toBe('eq.Kubernetes::Pod');
    expect(request.getAll('tags')).toEqual(['cs.{"cluster":"prod-eks"}', 'not.cs.{"env":"dev"}']);
    expect(request.get('health')).toBe('in.(healthy)');
    expect(request.get('status')).toBe('not.in.("Pending")');
    expect(request.get('deleted_at')).toBe('is.null');
    expect(request.get('order')).toBe('name.desc,name.asc,id.asc');
    expect(request.get('offset')).toBe('0');
    expect(request.get('limit')).toBe('200');
    expect(within(items).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');

    await user.type(screen.getByRole('searchbox', { name: 'Search catalog' }), 'api');
    expect(currentUrl().searchParams.has('search')).toBe(false);
    await waitFor(() => expect(currentUrl().searchParams.get('search')).toBe('api'));
    await waitFor(() => expect(lastConfigs().pathname).toBe('/api/db/rpc/search_configs'));
    const searched = lastConfigs().searchParams;
    expect(searched.get('search')).toBe('api');
    expect(searched.has('name')).toBe(false);
    expect(searched.get('type')).toBe('eq.Kubernetes::Pod');
    expect(searched.getAll('tags')).toEqual(['cs.{"cluster":"prod-eks"}', 'not.cs.{"env":"dev"}']);
    // The user sorted by name, so the search keeps that order rather than relevance.
    expect(searched.get('order')).toBe('name.desc,name.asc,id.asc');
  });

  it('searches inside content through the search function once typing pauses, best matches first when no column is sorted', async () => {
    const user = userEvent.setup();
    respondWithItems([makeItem({ name: 'checkout-7f9c' })]);
    renderCatalog('/catalog?configType=Kubernetes::Pod');
    expect(await screen.findByText('checkout-7f9c')).toBeInTheDocument();
    const before = configRequests.length;

    await user.type(screen.getByRole('searchbox', { name: 'Search catalog' }), '10.0.1');
    expect(configRequests.filter((url) => url.pathname.endsWith('/rpc/search_configs'))).toHaveLength(0);
    await waitFor(() => expect(lastConfigs().pathname).toBe('/api/db/rpc/search_configs'));
    const searches = configRequests.slice(before).filter((url) => url.pathname.endsWith('/rpc/search_configs'));
    // One request for the whole word: the 400 ms pause, not every keystroke, starts the search.
    expect(searches.map((url) => url.searchParams.get('search'))).toEqual(['10.0.1']);
    const request = lastConfigs().searchParams;
    expect(request.get('order')).toBe('rank.desc,name.asc,id.asc');
    expect(request.get('type')).toBe('eq.Kubernetes::Pod');
    expect(request.get('select')).toContain('agent:agent_id(id,name)');
    expect(await screen.findByText('1 item, best matches first')).toBeInTheDocument();
    const items = screen.getByRole('table', { name: 'Catalog items' });
    expect(within(items).getByRole('columnheader', { name: 'Type' })).not.toHaveAttribute('aria-sort', 'ascending');
  });

  it('says a configType no item has is unknown, without an empty table, and offers every type instead', async () => {
    const user = userEvent.setup();
    renderCatalog('/catalog?configType=Kubernetes::Podd');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Unknown config type 'Kubernetes::Podd'");
    expect(screen.queryByRole('table', { name: 'Catalog items' })).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Show all types' }));
    await waitFor(() => expect(currentUrl().searchParams.has('configType')).toBe(false));
    expect(await screen.findByRole('table', { name: 'Catalog summary' })).toBeInTheDocument();
  });

  it('hides deleted items by default and, when shown, greys them with a marker; items scraped over an hour ago are stale', async () => {
    respondWithItems([makeItem({})]);
    const first = renderCatalog('/catalog?search=api');
    expect(await screen.findByText('api-7d9f')).toBeInTheDocument();
    expect(lastConfigs().searchParams.get('deleted_at')).toBe('is.null');
    expect(screen.queryByText('Stale')).not.toBeInTheDocument();
    first.unmount();

    localStorage.setItem('hideDeletedCatalog', 'no');
    respondWithItems([
      makeItem({ id: 'c0000000-0000-4000-8000-000000000002', name: 'old-node', deleted_at: minutesAgo(120), last_scraped_time: minutesAgo(180) }),
      makeItem({ id: 'c0000000-0000-4000-8000-000000000003', name: 'quiet-node', last_scraped_time: minutesAgo(61) }),
      makeItem({ id: 'c0000000-0000-4000-8000-000000000004', name: 'fresh-node', last_scraped_time: minutesAgo(59) }),
    ]);
    renderCatalog('/catalog?search=node');
    const items = await screen.findByRole('table', { name: 'Catalog items' });
    const deletedRow = (await within(items).findByText('old-node')).closest('tr');
    expect(lastConfigs().searchParams.has('deleted_at')).toBe(false);
    expect(deletedRow).toHaveClass('text-gray-500');
    expect(within(deletedRow as HTMLElement).getByText('Deleted')).toBeInTheDocument();
    expect(within(deletedRow as HTMLElement).queryByText('Stale')).not.toBeInTheDocument();
    const quietRow = within(items).getByText('quiet-node').closest('tr') as HTMLElement;
    expect(quietRow).toHaveClass('text-gray-800');
    expect(within(quietRow).getByText('Stale')).toBeInTheDocument();
    expect(within(within(items).getByText('fresh-node').closest('tr') as HTMLElement).queryByText('Stale')).not.toBeInTheDocument();
  });

  it('counts deleted items in the summary when the preference shows them', async () => {
    localStorage.setItem('hideDeletedCatalog', 'no');
    summaryResponse = () => HttpResponse.json([makeSummaryRow({ deleted: 2 })]);
    renderCatalog();
    expect(await screen.findByText('2 deleted')).toBeInTheDocument();
    expect(summaryRequests[0]?.body).toMatchObject({ deleted: true });
  });

  it("shows the server's message when it refuses a grouping with a 400", async () => {
    summaryResponse = () =>
      HttpResponse.json({ code: 'OD_VALIDATION', message: "/groupBy/0 unknown grouping 'colour'", details: null, hint: null }, { status: 400 });
    renderCatalog('/catalog?groupBy=colour');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Catalog summary could not be loaded: /groupBy/0 unknown grouping 'colour'");
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("shows the data API's message when it refuses the flat-table filters with a 400", async () => {
    configsResponse = () => HttpResponse.json({ code: 'PGRST100', message: "'labels' is not a filter", details: null, hint: null }, { status: 400 });
    renderCatalog('/catalog?configType=Kubernetes::Pod');
    expect(await screen.findByRole('alert')).toHaveTextContent("Catalog items could not be loaded: 'labels' is not a filter");
  });

  it('says which parameter is malformed instead of asking the server', async () => {
    renderCatalog('/catalog?labels=no-separator');
    expect(await screen.findByRole('alert')).toHaveTextContent("The labels parameter could not be read: 'no-separator' is not a label filter");
    expect(configRequests).toHaveLength(0);
    expect(summaryRequests).toHaveLength(0);
  });

  it('names a malformed tags parameter, keeps the filters usable and clears only that parameter', async () => {
    const user = userEvent.setup();
    respondWithItems([makeItem({})]);
    renderCatalog('/catalog?configType=Kubernetes::Pod&tags=cluster=prod-eks');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("The tags parameter could not be read: 'cluster=prod-eks' is not a tag filter");
    expect(configRequests).toHaveLength(0);
    expect(screen.getByRole('searchbox', { name: 'Search catalog' })).toBeEnabled();
    await user.click(within(alert).getByRole('button', { name: 'Clear tags filter' }));
    expect(await screen.findByText('api-7d9f')).toBeInTheDocument();
    expect(currentUrl().searchParams.get('configType')).toBe('Kubernetes::Pod');
    expect(currentUrl().searchParams.has('tags')).toBe(false);
  });
});
