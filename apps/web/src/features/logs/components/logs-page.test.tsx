import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import type { LogLine, LogsResponse } from '@opsdeck/shared';
import { IncidentLinkProvider, IncidentLinkSlot, type IncidentLinkDialogProps, type LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type { ComponentWithLogs } from '../api/get-components-with-logs';
import type { ConfigItemWithLogs } from '../api/get-config-items-with-logs';
import { LogsPage } from './logs-page';

const API = 'a0000000-0000-4000-8000-000000000001';
const DB = 'a0000000-0000-4000-8000-000000000002';
const CHECKOUT_EAST = 'b0000000-0000-4000-8000-000000000001';
const CHECKOUT_WEST = 'b0000000-0000-4000-8000-000000000002';
const PICKER = 'Component or config item';

const COMPONENTS: ComponentWithLogs[] = [
  {
    id: API,
    name: 'api',
    text: null,
    type: 'Kubernetes::Deployment',
    icon: null,
    topology_id: null,
    log_selectors: [
      { name: 'api-pods', type: 'kubernetes', labels: { app: 'api' } },
      { name: 'api-loki', type: 'loki', labels: {} },
    ],
  },
  { id: DB, name: 'db', text: null, type: 'Database', icon: null, topology_id: null, log_selectors: [{ name: 'db-file', type: 'file', labels: {} }] },
];

/** Two deployments of one name in two clusters, which only their tags tell apart. */
const CONFIG_ITEMS: ConfigItemWithLogs[] = [
  {
    id: CHECKOUT_EAST,
    name: 'checkout',
    type: 'Kubernetes::Deployment',
    tags: { cluster: 'east', namespace: 'shop' },
    log_selectors: [{ name: 'shop-files', type: 'file', labels: { namespace: 'shop' } }],
  },
  {
    id: CHECKOUT_WEST,
    name: 'checkout',
    type: 'Kubernetes::Deployment',
    tags: { cluster: 'west', namespace: 'shop' },
    log_selectors: [{ name: 'shop-files', type: 'file', labels: { namespace: 'shop' } }],
  },
];

function makeLines(count: number): LogLine[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `l${index}`,
    timestamp: new Date(Date.UTC(2024, 0, 1, 12) - index * 1000).toISOString(),
    message: `message ${index}`,
    labels: { app: 'api', pod: index % 2 === 0 ? 'api-even' : 'api-odd' },
  }));
}

const answer = (lines: LogLine[], overrides: Partial<LogsResponse> = {}): LogsResponse => ({
  lines,
  total: lines.length,
  truncated: false,
  backend: { id: 'b1', name: 'cluster logs', type: 'kubernetes' },
  ...overrides,
});

let roles: string[] = ['admin'];
let flags: { name: string; value: string }[] = [];
let componentsResponse: () => Response = () => HttpResponse.json(COMPONENTS);
let logsResponse: (url: URL) => Response | Promise<Response> = () => HttpResponse.json(answer(makeLines(20)));
let componentRequests: URL[] = [];
/** What the picker's list answers, when it should differ from the components read one by one. */
let listedOnly: ComponentWithLogs[] | null = null;
let logRequests: URL[] = [];
let itemRequests: URL[] = [];

/** The data API's `or=(name.ilike.*text*,type.ilike.*text*)`, as far as these tests search. */
function itemsMatching(url: URL): ConfigItemWithLogs[] {
  const id = url.searchParams.get('id');
  if (id !== null) return CONFIG_ITEMS.filter((item) => `eq.${item.id}` === id);
  const text = /name\.ilike\.\*([^*]*)\*/.exec(url.searchParams.get('or') ?? '')?.[1]?.toLowerCase() ?? '';
  return CONFIG_ITEMS.filter((item) => item.name.includes(text) || item.type.toLowerCase().includes(text)).map(({ log_selectors: _selectors, ...option }) => ({ ...option, log_selectors: null }));
}

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json(flags)),
  http.get('*/api/db/components_with_logs', async ({ request }) => {
    const url = new URL(request.url);
    componentRequests.push(url);
    const response = componentsResponse();
    const id = url.searchParams.get('id');
    if (id === null && listedOnly !== null) return HttpResponse.json(listedOnly);
    if (id === null || !response.ok) return response;
    // One component by id, as the data API filters it.
    const rows = (await response.json()) as ComponentWithLogs[];
    return HttpResponse.json(rows.filter((row) => `eq.${row.id}` === id));
  }),
  http.get('*/api/db/config_items_with_logs', ({ request }) => {
    const url = new URL(request.url);
    itemRequests.push(url);
    return HttpResponse.json(itemsMatching(url));
  }),
  http.get('*/api/logs', ({ request }) => {
    const url = new URL(request.url);
    logRequests.push(url);
    return logsResponse(url);
  }),
);

afterEach(() => {
  vi.useRealTimers();
  roles = ['admin'];
  flags = [];
  componentsResponse = () => HttpResponse.json(COMPONENTS);
  logsResponse = () => HttpResponse.json(answer(makeLines(20)));
  componentRequests = [];
  listedOnly = null;
  logRequests = [];
  itemRequests = [];
});

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

let linked: LinkableEvidence[] = [];

/** Stands where app/ puts the incidents feature's dialog: it records the evidence it was opened with. */
function RecordingDialog({ evidence }: IncidentLinkDialogProps) {
  linked.push(evidence);
  return <div role="dialog" aria-label="Link to Incident" />;
}

function renderLogs(url = '/logs') {
  linked = [];
  return renderWithProviders(
    <IncidentLinkProvider component={IncidentLinkSlot} dialog={RecordingDialog}>
      <Routes>
        <Route
          path="/logs"
          element={
            <>
              <LogsPage />
              <LocationProbe />
            </>
          }
        />
      </Routes>
    </IncidentLinkProvider>,
    { path: url },
  );
}

const currentUrl = () => new URL(screen.getByTestId('location').textContent ?? '', 'http://localhost');
const lastLogRequest = (): URL => {
  const url = logRequests.at(-1);
  if (url === undefined) throw new Error('GET /api/logs was not called');
  return url;
};
const bodyRows = () => within(screen.getByRole('grid')).getAllByRole('row').filter((row) => row.closest('tbody') && !row.hasAttribute('aria-hidden'));

describe('LogsPage', () => {
  it("asks for no logs and says 'Please select a component to view the logs' until a component is chosen", async () => {
    renderLogs();
    expect(await screen.findByText('Please select a component to view the logs')).toBeInTheDocument();
    await waitFor(() => expect(componentRequests).toHaveLength(1));
    expect(componentRequests[0]?.searchParams.get('select')).toBe('id,name,text,type,icon,topology_id');
    expect(componentRequests[0]?.searchParams.get('order')).toBe('name.asc');
    expect(componentRequests[0]?.searchParams.get('limit')).toBe('1000');
    expect(logRequests).toEqual([]);
    expect(screen.getByRole('heading', { level: 1, name: 'Logs' })).toBeInTheDocument();
  });

  it("chooses the component's first log selector when its options load, writes it to the URL and reads its lines", async () => {
    renderLogs(`/logs?topologyId=${API}`);
    await waitFor(() => expect(currentUrl().searchParams.get('logsSelector')).toBe('api-pods'));
    await screen.findByText('message 0');
    expect(lastLogRequest().searchParams.get('id')).toBe(API);
    expect(lastLogRequest().searchParams.get('name')).toBe('api-pods');
    expect(lastLogRequest().searchParams.get('start')).toBe('1h');
    expect(lastLogRequest().searchParams.get('limit')).toBe('500');
    expect(screen.getByRole('combobox', { name: 'Log selector' })).toHaveTextContent('api-pods (kubernetes)');
    expect(screen.getByRole('combobox', { name: PICKER })).toHaveValue('api');
  });

  it('reads the component, selector, search and time range a shared link names, and keeps them in the URL as they change', async () => {
    const user = userEvent.setup();
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-loki&query=timeout&start=6h`);
    await screen.findByText('message 0');
    expect(Object.fromEntries(lastLogRequest().searchParams)).toEqual({ id: API, name: 'api-loki', query: 'timeout', start: '6h', limit: '500' });
    expect(screen.getByRole('searchbox', { name: 'Search logs' })).toHaveValue('timeout');

    await user.click(screen.getByRole('button', { name: 'Time range: Last 6 hours' }));
    await user.click(await screen.findByRole('button', { name: 'Last 1 day' }));
    await waitFor(() => expect(lastLogRequest().searchParams.get('start')).toBe('1d'));
    expect(currentUrl().searchParams.get('start')).toBe('1d');

    await user.click(screen.getByRole('combobox', { name: PICKER }));
    await user.click(await screen.findByRole('option', { name: /db/ }));
    await waitFor(() => expect(currentUrl().searchParams.get('logsSelector')).toBe('db-file'));
    expect(currentUrl().searchParams.get('topologyId')).toBe(DB);
    await waitFor(() => expect(lastLogRequest().searchParams.get('name')).toBe('db-file'));
    expect(lastLogRequest().searchParams.get('query')).toBe('timeout');
  });

  it('writes the search to the URL 500 ms after typing stops', async () => {
    renderLogs();
    const search = await screen.findByRole('searchbox', { name: 'Search logs' });
    vi.useFakeTimers();
    fireEvent.change(search, { target: { value: 'err' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(search, { target: { value: 'error' } });
    act(() => vi.advanceTimersByTime(499));
    expect(currentUrl().searchParams.get('query')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(currentUrl().searchParams.get('query')).toBe('error');
  });

  it("clears the component, its selector and label filters with 'None'", async () => {
    const user = userEvent.setup();
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods&labels=pod%3Dapi-odd`);
    await screen.findByText('message 1');
    await user.click(screen.getByRole('combobox', { name: PICKER }));
    await user.click(await screen.findByRole('option', { name: 'None' }));
    expect(await screen.findByText('Please select a component to view the logs')).toBeInTheDocument();
    expect(currentUrl().search).toBe('');
  });

  it('marks the page busy while the lines load and not once they are shown', async () => {
    let answerLines: (() => void) | undefined;
    logsResponse = () =>
      new Promise((resolve) => {
        answerLines = () => resolve(HttpResponse.json(answer(makeLines(3))));
      });
    renderLogs(`/logs?topologyId=${API}`);
    expect(await screen.findByText('Loading logs…')).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(answerLines).toBeDefined());
    answerLines?.();
    await screen.findByText('message 0');
    expect(document.querySelector('[aria-busy="true"]')).toBeNull();
  });

  it("says 'There are no logs matching the search query' when the call answers no lines", async () => {
    logsResponse = () => HttpResponse.json(answer([]));
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods&query=nothing`);
    expect(await screen.findByText('There are no logs matching the search query')).toBeInTheDocument();
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
  });

  it('reads the linked component with its selectors on its own, so one past the listed options still works', async () => {
    listedOnly = COMPONENTS.filter((row) => row.id !== API);
    renderLogs(`/logs?topologyId=${API}`);
    await waitFor(() => expect(currentUrl().searchParams.get('logsSelector')).toBe('api-pods'));
    const single = componentRequests.find((url) => url.searchParams.get('id') === `eq.${API}`);
    expect(single?.searchParams.get('select')).toBe('id,name,text,type,icon,topology_id,log_selectors');
    await waitFor(() => expect(lastLogRequest().searchParams.get('id')).toBe(API));
    expect(screen.getByRole('combobox', { name: /component/i })).toHaveValue('api');
  });

  it("shows 'Unable to load components!' when the component list fails, and loads it again on request", async () => {
    const user = userEvent.setup();
    componentsResponse = () => HttpResponse.json({ code: 'PGRST205', message: 'relation missing', details: null, hint: null }, { status: 404 });
    renderLogs();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unable to load components!');
    componentsResponse = () => HttpResponse.json(COMPONENTS);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByText('Unable to load components!')).not.toBeInTheDocument());
    expect(componentRequests.filter((url) => url.searchParams.get('id') === null)).toHaveLength(2);
  });

  it("shows the server's message when the logs call fails, and asks again on request", async () => {
    const user = userEvent.setup();
    logsResponse = () => HttpResponse.json({ code: 'LOG_BACKEND_UNREACHABLE', message: 'Loki answered 503', details: 'GET /loki/api/v1/query_range', hint: null }, { status: 502 });
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Logs could not be loaded: Loki answered 503');
    expect(alert).toHaveTextContent('GET /loki/api/v1/query_range');
    logsResponse = () => HttpResponse.json(answer(makeLines(3)));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('message 2')).toBeInTheDocument();
  });

  it('shows how many lines matched and says so when the answer was cut short', async () => {
    logsResponse = (url) =>
      HttpResponse.json(url.searchParams.get('limit') === '500' ? answer(makeLines(500), { total: 501, truncated: true }) : answer(makeLines(20), { total: 250_000, truncated: true }));
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    expect(await screen.findByText('20 lines (250,000 matches in total) from cluster logs')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Only the newest 20 lines of 250,000 matches were returned');
  });

  it('shows the newest 500 lines first, then the whole answer, and keeps a line picked meanwhile selected', async () => {
    const user = userEvent.setup();
    let sendRest: () => void = () => undefined;
    const restSent = new Promise<void>((resolve) => {
      sendRest = resolve;
    });
    logsResponse = async (url) => {
      if (url.searchParams.get('limit') === '500') return HttpResponse.json(answer(makeLines(500), { total: 501, truncated: true }));
      await restSent;
      return HttpResponse.json(answer(makeLines(1200)));
    };
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    expect(await screen.findByText('Newest 500 lines from cluster logs · loading the rest…')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await waitFor(() => expect(logRequests.map((url) => url.searchParams.get('limit'))).toEqual(['500', '100000']));
    await user.click(screen.getByText('message 1'));
    expect(screen.getByText('1 line selected')).toBeInTheDocument();

    sendRest();
    expect(await screen.findByText('1,200 lines from cluster logs')).toBeInTheDocument();
    expect(screen.getByText('1 line selected')).toBeInTheDocument();
    expect(screen.getByText('message 1').closest('tr')).toHaveAttribute('aria-selected', 'true');
  });

  it('asks only once when the first page holds every matching line', async () => {
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    expect(await screen.findByText('20 lines from cluster logs')).toBeInTheDocument();
    expect(logRequests).toHaveLength(1);
  });

  it('keeps the first page on screen when the rest of the answer fails, and asks again on request', async () => {
    const user = userEvent.setup();
    let restFails = true;
    logsResponse = (url) => {
      if (url.searchParams.get('limit') === '500') return HttpResponse.json(answer(makeLines(500), { total: 501, truncated: true }));
      return restFails
        ? HttpResponse.json({ code: 'OD_LOG_BACKEND_UNAVAILABLE', message: 'The log backend did not answer in time.' }, { status: 503 })
        : HttpResponse.json(answer(makeLines(800)));
    };
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Only the newest lines are shown: the rest could not be loaded. The log backend did not answer in time.');
    expect(screen.getByText('message 0')).toBeInTheDocument();
    expect(screen.getByText('Newest 500 lines from cluster logs')).toBeInTheDocument();

    restFails = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('800 lines from cluster logs')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps only the lines with a clicked label, shows the filter in the URL and as a chip, and removes it again', async () => {
    const user = userEvent.setup();
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    await screen.findByText('message 0');
    const [, second] = bodyRows();
    if (second === undefined) throw new Error('rows missing');
    await user.click(within(second).getByRole('button', { name: 'pod=api-odd' }));
    await waitFor(() => expect(screen.queryByText('message 0')).not.toBeInTheDocument());
    expect(currentUrl().searchParams.get('labels')).toBe('pod=api-odd');
    expect(bodyRows()).toHaveLength(10);
    expect(within(screen.getByRole('list', { name: 'Label filters' })).getByText('pod=api-odd')).toBeInTheDocument();
    // Filtering is done on the loaded lines: the server is not asked again.
    expect(logRequests).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Remove filter pod=api-odd' }));
    expect(await screen.findByText('message 0')).toBeInTheDocument();
    expect(currentUrl().searchParams.get('labels')).toBeNull();
  });

  it('attaches the selected lines with three lines of context either side as log evidence', async () => {
    const user = userEvent.setup();
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods&start=6h`);
    await screen.findByText('message 0');
    const attach = screen.getByRole('button', { name: 'Attach as Evidence' });
    expect(attach).toBeDisabled();
    await user.click(screen.getByText('message 1'));
    await user.click(screen.getByText('message 10'));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByText('message 11'));
    await user.keyboard('{/Shift}');
    expect(screen.getByText('3 lines selected')).toBeInTheDocument();
    await user.click(attach);
    expect(await screen.findByRole('dialog', { name: 'Link to Incident' })).toBeInTheDocument();
    const evidence = linked.at(-1);
    const kept = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14];
    expect(evidence).toEqual({
      type: 'log',
      component_id: API,
      description: 'Logs of api (api-pods)',
      evidence: {
        lines: kept.map((index) => ({
          timestamp: new Date(Date.UTC(2024, 0, 1, 12) - index * 1000).toISOString(),
          message: `message ${index}`,
          labels: { app: 'api', pod: index % 2 === 0 ? 'api-even' : 'api-odd' },
        })),
        selected_lines: [1, 8, 9],
        start: '6h',
      },
    });
  });

  it('offers Attach as Evidence only to users who may write incidents', async () => {
    roles = ['viewer'];
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    await screen.findByText('message 0');
    expect(screen.getByText(/Click a line or press Space/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });

  it('hides Attach as Evidence while the incidents area is switched off', async () => {
    flags = [{ name: 'incidents.disable', value: 'true' }];
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    await screen.findByText('message 0');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument());
  });

  it('offers the config items log backends serve after the components, each with its type and the cluster and namespace that tell two apart', async () => {
    const user = userEvent.setup();
    renderLogs();
    const picker = await screen.findByRole('combobox', { name: PICKER });
    await waitFor(() => expect(picker).toBeEnabled());
    await user.click(picker);
    const listbox = await screen.findByRole('listbox', { name: 'Components and config items' });
    const components = within(listbox).getByRole('group', { name: 'Components' });
    const items = within(listbox).getByRole('group', { name: 'Config items' });
    expect(within(components).getAllByRole('option').map((option) => option.textContent)).toEqual(['apiKubernetes::Deployment', 'dbDatabase']);
    await waitFor(() => expect(within(items).getAllByRole('option')).toHaveLength(2));
    expect(within(items).getAllByRole('option').map((option) => option.textContent)).toEqual(['checkoutDeploymenteast / shop', 'checkoutDeploymentwest / shop']);
    // An estate holds far more items than components: they are asked for a page at a time, by name.
    expect(itemRequests[0]?.searchParams.get('select')).toBe('id,name,type,tags');
    expect(itemRequests[0]?.searchParams.get('order')).toBe('name.asc');
    expect(itemRequests[0]?.searchParams.get('limit')).toBe('50');
  });

  it('searches config items on the server by what is typed in the picker', async () => {
    const user = userEvent.setup();
    renderLogs();
    const picker = await screen.findByRole('combobox', { name: PICKER });
    await waitFor(() => expect(picker).toBeEnabled());
    await user.type(picker, 'check');
    await waitFor(() => expect(itemRequests.at(-1)?.searchParams.get('or')).toBe('(name.ilike.*check*,type.ilike.*check*)'));
    const listbox = screen.getByRole('listbox');
    expect(within(within(listbox).getByRole('group', { name: 'Components' })).getByText('No component matches')).toBeInTheDocument();
    expect(within(within(listbox).getByRole('group', { name: 'Config items' })).getAllByRole('option')).toHaveLength(2);
  });

  it("writes a picked config item's id to the URL as a component's is, and reads its lines through its first selector", async () => {
    const user = userEvent.setup();
    renderLogs();
    const picker = await screen.findByRole('combobox', { name: PICKER });
    await waitFor(() => expect(picker).toBeEnabled());
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: /west \/ shop/ }));
    await waitFor(() => expect(currentUrl().searchParams.get('topologyId')).toBe(CHECKOUT_WEST));
    await waitFor(() => expect(currentUrl().searchParams.get('logsSelector')).toBe('shop-files'));
    await screen.findByText('message 0');
    expect(lastLogRequest().searchParams.get('id')).toBe(CHECKOUT_WEST);
    expect(lastLogRequest().searchParams.get('name')).toBe('shop-files');
  });

  it('opens on the config item a link names, shown with its place and marked as a config item', async () => {
    renderLogs(`/logs?topologyId=${CHECKOUT_EAST}`);
    await waitFor(() => expect(currentUrl().searchParams.get('logsSelector')).toBe('shop-files'));
    await screen.findByText('message 0');
    const picker = screen.getByRole('combobox', { name: PICKER });
    expect(picker).toHaveValue('checkout (east / shop)');
    expect(picker).toHaveAttribute('title', 'Config item: checkout (east / shop)');
    expect(screen.getByTestId('subject-kind')).toHaveTextContent('Config item');
    expect(screen.getByRole('combobox', { name: 'Log selector' })).toHaveTextContent('shop-files (file)');
    expect(screen.getByRole('grid', { name: 'Log lines of checkout' })).toBeInTheDocument();
  });

  it("attaches a config item's lines as evidence of that item", async () => {
    const user = userEvent.setup();
    renderLogs(`/logs?topologyId=${CHECKOUT_EAST}&logsSelector=shop-files`);
    await screen.findByText('message 0');
    await user.click(screen.getByText('message 2'));
    await user.click(screen.getByRole('button', { name: 'Attach as Evidence' }));
    await screen.findByRole('dialog', { name: 'Link to Incident' });
    expect(linked.at(-1)).toMatchObject({ type: 'log', config_id: CHECKOUT_EAST, description: 'Logs of checkout (shop-files)' });
    expect(linked.at(-1)).not.toHaveProperty('component_id');
  });

  it('says no log backend serves an id that is neither a component nor an item with logs', async () => {
    renderLogs('/logs?topologyId=c0000000-0000-4000-8000-00000000000f');
    expect(await screen.findByText('No log backend serves this component or config item')).toBeInTheDocument();
    expect(logRequests).toEqual([]);
  });

  it('marks the searched text in the lines the search found', async () => {
    logsResponse = () =>
      HttpResponse.json(answer([{ id: 'a', timestamp: new Date().toISOString(), message: 'Timeout calling payments after timeout', labels: { level: 'error' } }]));
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods&query=timeout`);
    const row = (await screen.findByText(/calling payments/)).closest('tr');
    expect([...(row?.querySelectorAll('mark') ?? [])].map((mark) => mark.textContent)).toEqual(['Timeout', 'timeout']);
  });

  it('draws the volume of the lines over the chosen time range above them, coloured by level', async () => {
    const now = Date.now();
    logsResponse = () =>
      HttpResponse.json(
        answer(
          Array.from({ length: 12 }, (_, index) => ({
            id: `v${index}`,
            timestamp: new Date(now - index * 5 * 60_000).toISOString(),
            message: `volume ${index}`,
            labels: { level: index % 4 === 0 ? 'error' : 'info' },
          })),
        ),
      );
    renderLogs(`/logs?topologyId=${API}&logsSelector=api-pods`);
    await screen.findByText('volume 0');
    const figure = screen.getByRole('figure', { name: 'Log volume' });
    expect(within(figure).getByRole('img').getAttribute('aria-label')).toMatch(/^Log volume: 12 lines from .+, 1 minute per bar; .*3 error, 9 info\.$/);
    const bars = within(figure).getAllByTestId('volume-bar');
    expect(bars.length).toBeGreaterThanOrEqual(60);
    expect(bars.map((bar) => Number(bar.dataset.count)).reduce((sum, count) => sum + count, 0)).toBe(12);
    expect(bars.flatMap((bar) => [...bar.querySelectorAll('.bg-red-500')])).toHaveLength(3);
  });
});
