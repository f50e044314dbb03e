import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, getConfig, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import type { HealthSummary } from '../api/types';
import { currentSearch, makeCheck, makeDetail, makeSummary, renderAtHealth } from '../health-test-support';
import { REFRESH_RATE_STORAGE_KEY } from '../utils/refresh-rate';
import { HealthPage } from './health-page';

const api = makeCheck({ id: 'a0000000-0000-4000-8000-000000000001', name: 'api/healthz', labels: { env: 'prod', critical: 'true' } });
const web = makeCheck({ id: 'a0000000-0000-4000-8000-000000000002', name: 'web/home', canary_name: 'edge', labels: { env: 'staging' } });
const backup = makeCheck({
  id: 'a0000000-0000-4000-8000-000000000003',
  name: 'api/backup',
  status: 'unhealthy',
  uptime: { passed: 10, failed: 90 },
  labels: { env: 'prod', critical: 'false' },
});
const checks = [api, web, backup];
const labels = { critical: ['false', 'true'], env: ['prod', 'staging'] };

interface SummaryRequest {
  url: URL;
  signal: AbortSignal;
}

let summaryRequests: SummaryRequest[] = [];
let summaryResponse: (url: URL) => Promise<Response> | Response = () => HttpResponse.json(makeSummary(checks, { labels }));

setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
  http.get('*/api/canary/api/summary', ({ request }) => {
    const url = new URL(request.url);
    summaryRequests.push({ url, signal: request.signal });
    return summaryResponse(url);
  }),
  http.get('*/api/canary/api/details', () => HttpResponse.json(makeDetail(api))),
  http.get('*/api/db/check_statuses', () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } })),
);

afterEach(() => {
  vi.useRealTimers();
  summaryRequests = [];
  summaryResponse = () => HttpResponse.json(makeSummary(checks, { labels }));
});

const lastSummary = (): URLSearchParams => summaryRequests.at(-1)?.url.searchParams ?? new URLSearchParams();
const probe = () => screen.getByTestId('location');

async function chooseOption(user: ReturnType<typeof userEvent.setup>, combobox: string, option: string): Promise<void> {
  await user.click(screen.getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Health dashboard', () => {
  it('asks the summary for the first page of the flat list and shows the columns of the spec', async () => {
    renderAtHealth(<HealthPage />);
    const table = await screen.findByRole('table', { name: 'Health checks' });
    expect(await within(table).findByText('api/healthz')).toBeInTheDocument();
    for (const header of ['Checks', 'Health', 'Uptime', 'Latency', 'Transition']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(Object.fromEntries(lastSummary())).toEqual({ timeRange: '1d', tabBy: 'namespace', pageIndex: '0', pageSize: '50' });
    expect(within(table).getAllByText('99%')).toHaveLength(2);
    expect(within(table).getByText('10%')).toBeInTheDocument();
    expect(within(table).getAllByText('120ms')).toHaveLength(3);
    expect(within(table).getAllByText('2h')).toHaveLength(3);
  });

  it("shows 'No data available' when no check matches", async () => {
    summaryResponse = () => HttpResponse.json(makeSummary([]));
    renderAtHealth(<HealthPage />);
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });

  it('shows the server message with a retry when the summary fails', async () => {
    summaryResponse = () => HttpResponse.json({ code: 'XX000', message: 'summary exploded', details: null, hint: null }, { status: 400 });
    renderAtHealth(<HealthPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('summary exploded');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('offers the fixed Group By choices plus one per label key, groups on the server and fetches the checks of a group as it opens', async () => {
    const user = userEvent.setup();
    let releaseOpened: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => {
      releaseOpened = resolve;
    });
    summaryResponse = async (url) => {
      // As the server does: the checks of the groups asked for alone, every group counted.
      const asked = url.searchParams.get('groups');
      const open = asked === null ? null : (JSON.parse(asked) as string[]);
      if (open !== null && open.length > 0) await opened;
      return HttpResponse.json(
        makeSummary(open === null ? checks : checks.filter((check) => open.includes(check.name.split('/')[0] ?? '')), {
          labels,
          groups:
            url.searchParams.get('groupBy') === 'name'
              ? [
                  { key: 'api', count: 2, healthy: 1, unhealthy: 1, warning: 0, unknown: 0, health: 'mixed' },
                  { key: 'web', count: 1, healthy: 1, unhealthy: 0, warning: 0, unknown: 0, health: 'good' },
                ]
              : [],
        }),
      );
    };
    renderAtHealth(<HealthPage />);
    await screen.findByText('api/healthz');
    await user.click(screen.getByRole('combobox', { name: 'Group By' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['No Grouping', 'Group Name', 'Name', 'Description', 'Type', 'critical', 'env']);
    await user.click(screen.getByRole('option', { name: 'Name' }));

    await waitFor(() => expect(lastSummary().get('groupBy')).toBe('name'));
    // Grouped rows are not paged; with every group closed no check is asked for.
    expect(lastSummary().has('pageSize')).toBe(false);
    expect(lastSummary().get('groups')).toBe('[]');
    expect(currentSearch(probe()).get('groupBy')).toBe('name');
    const table = screen.getByRole('table', { name: 'Health checks' });
    expect(await within(table).findByText('api')).toBeInTheDocument();
    expect(within(table).queryByText('api/healthz')).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Expand api' }));
    await waitFor(() => expect(lastSummary().get('groups')).toBe('["api"]'));
    expect(within(table).getByRole('status')).toHaveTextContent('Loading checks…');
    releaseOpened();
    expect(await within(table).findByText('api/healthz')).toBeInTheDocument();
    expect(within(table).getByText('api/backup')).toBeInTheDocument();
    expect(within(table).queryByText('web/home')).not.toBeInTheDocument();
    expect(within(table).queryByRole('status')).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Collapse api' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(within(table).getByText('api/healthz'));
    expect(currentSearch(probe()).get('checkId')).toBe(api.id);
    expect(await screen.findByRole('dialog', { name: 'api/healthz' })).toBeInTheDocument();
  });

  it('offers namespace, each label key and Agent as Tab By choices and filters by the chosen tab', async () => {
    const user = userEvent.setup();
    summaryResponse = () =>
      HttpResponse.json(
        makeSummary(checks, {
          labels,
          tabs: [
            { key: 'All', count: 3 },
            { key: 'default', count: 2 },
            { key: 'none', count: 1 },
          ],
        }),
      );
    renderAtHealth(<HealthPage />);
    const tablist = await screen.findByRole('tablist', { name: 'Check tabs' });
    await waitFor(() => expect(within(tablist).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['All3', 'default2', 'none1']));
    expect(within(tablist).getByRole('tab', { name: /All/ })).toHaveAttribute('aria-selected', 'true');

    await user.click(within(tablist).getByRole('tab', { name: /none/ }));
    await waitFor(() => expect(lastSummary().get('tab')).toBe('none'));

    await user.click(screen.getByRole('combobox', { name: 'Tab By' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['namespace', 'critical', 'env', 'Agent']);
    await user.click(screen.getByRole('option', { name: 'Agent' }));
    await waitFor(() => expect(lastSummary().get('tabBy')).toBe('agent'));
    // A new Tab By starts again on All.
    expect(lastSummary().has('tab')).toBe(false);
  });

  it('sends Hide Passing, label selections and boolean label toggles to the server', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />);
    await screen.findByText('api/healthz');

    await user.click(screen.getByRole('switch', { name: 'Hide Passing' }));
    await waitFor(() => expect(lastSummary().get('hidePassing')).toBe('true'));

    await user.click(screen.getByRole('button', { name: /^env/ }));
    const panel = await screen.findByRole('dialog', { name: 'env filter' });
    await user.click(within(panel).getByRole('button', { name: 'Include prod' }));
    await waitFor(() => expect(lastSummary().get('labels')).toBe('env=prod'));
    await user.click(within(panel).getByRole('button', { name: 'Exclude staging' }));
    await waitFor(() => expect(lastSummary().get('labels')).toBe('env=prod,!env=staging'));
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('switch', { name: 'critical' }));
    await waitFor(() => expect(lastSummary().get('labels')).toBe('env=prod,!env=staging,critical=true'));
    expect(currentSearch(probe()).get('labels')).toBe('env=prod:1,env=staging:-1,critical=true:1');
  });

  it('shows the tab counts of the filtered list: Hide Passing brings All down to the checks left in view', async () => {
    const user = userEvent.setup();
    summaryResponse = (url) => {
      const shown = url.searchParams.get('hidePassing') === 'true' ? [backup] : checks;
      return HttpResponse.json(
        makeSummary(shown, {
          labels,
          tabs: [
            { key: 'All', count: shown.length },
            { key: 'default', count: shown.length },
          ],
        }),
      );
    };
    renderAtHealth(<HealthPage />);
    const tablist = await screen.findByRole('tablist', { name: 'Check tabs' });
    await waitFor(() => expect(within(tablist).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['All3', 'default3']));
    await user.click(screen.getByRole('switch', { name: 'Hide Passing' }));
    await waitFor(() => expect(within(tablist).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['All1', 'default1']));
    const table = screen.getByRole('table', { name: 'Health checks' });
    expect(within(table).queryByText('api/healthz')).not.toBeInTheDocument();
    expect(within(table).getByText('api/backup')).toBeInTheDocument();
  });

  it('counts in a lone All tab the checks that pass the status filters, not every check', async () => {
    summaryResponse = () =>
      HttpResponse.json(makeSummary([backup], { labels, tabs: [], counts: { total: 3, healthy: 2, unhealthy: 1, warning: 0, unknown: 0 } }));
    renderAtHealth(<HealthPage />, '/health?status=unhealthy');
    const tablist = await screen.findByRole('tablist', { name: 'Check tabs' });
    await waitFor(() => expect(within(tablist).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['All1']));
  });

  it('keeps the label filter options when a search matches nothing, and offers values no row shows', async () => {
    const user = userEvent.setup();
    summaryResponse = (url) => HttpResponse.json(makeSummary(url.searchParams.has('query') ? [] : [api, backup], { labels }));
    renderAtHealth(<HealthPage />);
    await screen.findByText('api/healthz');
    await user.type(screen.getByRole('searchbox'), 'no-such-check');
    await waitFor(() => expect(lastSummary().get('query')).toBe('no-such-check'));
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'critical' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^env/ }));
    const panel = await screen.findByRole('dialog', { name: 'env filter' });
    // Every row is prod, the options come from the checks in scope.
    expect(within(panel).getByRole('button', { name: 'Include staging' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Include prod' })).toBeInTheDocument();
  });

  it('colours uptime by the progress thresholds 75 and 90 in the table and the cards', async () => {
    const flaky = makeCheck({ id: 'a0000000-0000-4000-8000-000000000004', name: 'api/flaky', uptime: { passed: 80, failed: 20 } });
    // 89.96 % is shown as 90 %, and coloured as what it shows.
    const almost = makeCheck({ id: 'a0000000-0000-4000-8000-000000000005', name: 'api/almost', status: 'unhealthy', uptime: { passed: 8996, failed: 1004 } });
    summaryResponse = () => HttpResponse.json(makeSummary([api, backup, flaky, almost], { labels }));
    renderAtHealth(<HealthPage />);
    const table = await screen.findByRole('table', { name: 'Health checks' });
    const colourOf = async (scope: HTMLElement, text: string): Promise<string | null> => (await within(scope).findByText(text)).getAttribute('data-color');
    expect(await colourOf(table, '99%')).toBe('green');
    expect(await colourOf(table, '10%')).toBe('red');
    expect(await colourOf(table, '80%')).toBe('orange');
    expect(await colourOf(table, '90%')).toBe('green');
    cleanup();
    renderAtHealth(<HealthPage />, '/health?layout=card');
    const cards = await screen.findByRole('list', { name: 'Health checks' });
    expect(await colourOf(cards, '10%')).toBe('red');
    expect(await colourOf(cards, '80%')).toBe('orange');
  });

  it('searches by name, description or endpoint once typing pauses', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />);
    await screen.findByText('api/healthz');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name, description, or endpoint' }), 'backup');
    await waitFor(() => expect(lastSummary().get('query')).toBe('backup'));
    expect(summaryRequests.filter((request) => request.url.searchParams.has('query'))).toHaveLength(1);
  });

  it('sorts on the server from the column headers', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />);
    await screen.findByText('api/healthz');
    await user.click(screen.getByRole('button', { name: 'Uptime' }));
    await waitFor(() => expect(lastSummary().get('sortBy')).toBe('uptime'));
    // Numeric columns sort descending on the first click, as the table library does for numbers.
    expect(lastSummary().get('sortDesc')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Uptime' }));
    await waitFor(() => expect(lastSummary().get('sortDesc')).toBe('false'));
    expect(currentSearch(probe()).get('sortBy')).toBe('uptime');
  });

  it('applies a status= entry and shows which status is filtered', async () => {
    renderAtHealth(<HealthPage />, '/health?status=unhealthy');
    await screen.findByText('api/healthz');
    expect(lastSummary().get('status')).toBe('unhealthy');
    expect(screen.getByText('Status: unhealthy')).toBeInTheDocument();
  });

  it('asks the server for status=warning and shows a recovered check orange, counted apart from healthy ones', async () => {
    const flapping = makeCheck({ id: 'a0000000-0000-4000-8000-000000000004', name: 'api/flapping', health: 'warning', uptime: { passed: 95, failed: 5 } });
    summaryResponse = () => HttpResponse.json(makeSummary([flapping]));
    renderAtHealth(<HealthPage />, '/health?status=warning');
    const table = await screen.findByRole('table', { name: 'Health checks' });
    const row = (await within(table).findByText('api/flapping')).closest('tr');
    if (row === null) throw new Error('no row');
    expect(within(row).getByRole('img', { name: 'warning' })).toHaveAttribute('data-color', 'orange');
    expect(within(row).getByText('warning')).toBeInTheDocument();
    expect(lastSummary().get('status')).toBe('warning');
    expect(screen.getByText(/0 healthy, 0 unhealthy\s*, 1 warning/)).toBeInTheDocument();
  });

  it('gives a warning card an orange dot and top border', async () => {
    const flapping = makeCheck({ id: 'a0000000-0000-4000-8000-000000000004', name: 'api/flapping', health: 'warning' });
    summaryResponse = () => HttpResponse.json(makeSummary([flapping]));
    renderAtHealth(<HealthPage />, '/health?layout=card');
    const card = await screen.findByRole('button', { name: /api\/flapping/ });
    expect(within(card).getByRole('img', { name: 'warning' })).toHaveAttribute('data-color', 'orange');
    expect(card).toHaveClass('border-t-orange-400');
  });

  it('switches to the card layout through the layout parameter', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />);
    await screen.findByRole('table', { name: 'Health checks' });
    await user.click(screen.getByRole('button', { name: 'Cards' }));
    expect(currentSearch(probe()).get('layout')).toBe('card');
    const list = await screen.findByRole('list', { name: 'Health checks' });
    expect(within(list).getAllByRole('button')).toHaveLength(3);
  });

  it('opens the check named by checkId in the URL', async () => {
    renderAtHealth(<HealthPage />, `/health?checkId=${api.id}`);
    expect(await screen.findByRole('dialog', { name: 'api/healthz' })).toBeInTheDocument();
  });
});

describe('Health dashboard refresh rate', () => {
  it('says what its dropdown chooses: Auto-refresh, beside the rate (None at first)', async () => {
    renderAtHealth(<HealthPage />, '/health');
    await screen.findByText('api/healthz');
    const control = screen.getByRole('combobox', { name: 'Refresh rate' });
    expect(control).toHaveTextContent('None');
    expect(control.parentElement).toHaveTextContent(/^Auto-refresh\s*None/);
  });

  it('disables 15s, 30s, 2m and 3m over a range of a day', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />, '/health?timeRange=1d');
    await screen.findByText('api/healthz');
    await user.click(screen.getByRole('combobox', { name: 'Refresh rate' }));
    const disabled = (await screen.findAllByRole('option')).filter((option) => option.getAttribute('aria-disabled') === 'true');
    expect(disabled.map((option) => option.textContent)).toEqual(['15s', '30s', '2m', '3m']);
  });

  it('disables only 15s and 30s over a range of two hours', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />, '/health?timeRange=2h');
    await screen.findByText('api/healthz');
    await user.click(screen.getByRole('combobox', { name: 'Refresh rate' }));
    const disabled = (await screen.findAllByRole('option')).filter((option) => option.getAttribute('aria-disabled') === 'true');
    expect(disabled.map((option) => option.textContent)).toEqual(['15s', '30s']);
  });

  it('moves a stored rate that the range refuses to the next allowed one and stores it', async () => {
    localStorage.setItem(REFRESH_RATE_STORAGE_KEY, '30s');
    renderAtHealth(<HealthPage />, '/health?timeRange=3h');
    await screen.findByText('api/healthz');
    await waitFor(() => expect(localStorage.getItem(REFRESH_RATE_STORAGE_KEY)).toBe('60s'));
    expect(screen.getByRole('combobox', { name: 'Refresh rate' })).toHaveTextContent('60s (1 minute)');
  });

  it('stores the chosen rate under healthPageRefreshRate and clears it when None is chosen', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />, '/health?timeRange=15m');
    await screen.findByText('api/healthz');
    await chooseOption(user, 'Refresh rate', '15s');
    expect(localStorage.getItem(REFRESH_RATE_STORAGE_KEY)).toBe('15s');
    await chooseOption(user, 'Refresh rate', 'None');
    expect(localStorage.getItem(REFRESH_RATE_STORAGE_KEY)).toBeNull();
  });

  it('polls at the chosen rate and aborts a poll still in flight when the next one starts', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    localStorage.setItem(REFRESH_RATE_STORAGE_KEY, '15s');
    let release: (() => void) | undefined;
    summaryResponse = () => {
      // The first answer comes at once; the next one hangs until it is aborted.
      if (summaryRequests.length === 1) return HttpResponse.json(makeSummary(checks, { labels }));
      return new Promise<Response>((resolve) => {
        release = () => resolve(HttpResponse.json(makeSummary(checks, { labels }) satisfies HealthSummary));
      });
    };
    renderAtHealth(<HealthPage />, '/health?timeRange=15m');
    await screen.findByText('api/healthz');
    expect(summaryRequests).toHaveLength(1);

    // vi.waitFor, not waitFor: Testing Library's polling runs on the faked setInterval. Its one-second default is too
    // short for a loaded machine, so it waits as long as the suite's other waits.
    const waitForRequests = (count: number) => vi.waitFor(() => expect(summaryRequests).toHaveLength(count), { timeout: getConfig().asyncUtilTimeout });
    act(() => vi.advanceTimersByTime(15_000));
    await waitForRequests(2);
    expect(summaryRequests[1]?.signal.aborted).toBe(false);

    act(() => vi.advanceTimersByTime(15_000));
    await waitForRequests(3);
    expect(summaryRequests[1]?.signal.aborted).toBe(true);
    release?.();
  });
});

describe('Health dashboard pivot view', () => {
  const pivotTable = () => screen.findByRole('table', { name: 'Health pivot' });
  const columnHeaders = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((header) => header.textContent);
  const rowNames = (table: HTMLElement) =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

  it('compares checks across a label: a row per name, a column per value, every matching check asked for', async () => {
    renderAtHealth(<HealthPage />, '/health?pivotBy=labels&pivotLabel=env&groupBy=type');
    const table = await pivotTable();
    await waitFor(() => expect(columnHeaders(table)).toEqual(['Checks', 'prod', 'staging']));
    expect(rowNames(table)).toEqual(['api/backup', 'api/healthz', 'web/home']);
    expect(within(table).getByRole('button', { name: 'api/backup, prod: unhealthy' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'web/home, staging: healthy' })).toBeInTheDocument();
    // An empty cell holds nothing to click.
    expect(within(table).queryByRole('button', { name: /^web\/home, prod/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Health checks' })).not.toBeInTheDocument();
    expect(lastSummary().has('pageSize')).toBe(false);
    expect(lastSummary().has('groupBy')).toBe(false);
  });

  it('opens the check detail from a single-check cell through checkId', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />, '/health?pivotBy=labels&pivotLabel=env');
    const table = await pivotTable();
    await user.click(await within(table).findByRole('button', { name: 'api/healthz, prod: healthy' }));
    expect(currentSearch(probe()).get('checkId')).toBe(api.id);
    expect(await screen.findByRole('dialog', { name: 'api/healthz' })).toBeInTheDocument();
  });

  it('rows by name prefix when grouping by name, with several checks in a cell aggregated and listed to choose from', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />, '/health?pivotBy=labels&pivotLabel=env&groupBy=name');
    const table = await pivotTable();
    await waitFor(() => expect(rowNames(table)).toEqual(['api', 'web']));
    const cell = within(table).getByRole('button', { name: 'api, prod: unhealthy, 2 checks' });
    expect(within(cell).getByRole('img', { name: 'unhealthy' })).toHaveAttribute('data-color', 'red');
    expect(cell).toHaveTextContent('2');

    cell.focus();
    await user.keyboard('{Enter}');
    const list = await screen.findByRole('dialog', { name: 'api in prod' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent?.split('opsdeck-self')[0])).toEqual(['api/healthz', 'api/backup']);
    await user.click(within(list).getByRole('button', { name: /api\/backup/ }));
    expect(currentSearch(probe()).get('checkId')).toBe(backup.id);
  });

  it('chooses the pivot and its cell from the filter bar, kept in the URL, and returns to the table with None', async () => {
    const user = userEvent.setup();
    renderAtHealth(<HealthPage />);
    await screen.findByRole('table', { name: 'Health checks' });
    expect(screen.queryByRole('combobox', { name: 'Cell' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Pivot By' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['None', 'Namespace', 'Type', 'Agent', 'critical', 'env']);
    await user.click(screen.getByRole('option', { name: 'env' }));
    expect(Object.fromEntries(currentSearch(probe()))).toEqual({ pivotBy: 'labels', pivotLabel: 'env' });
    const table = await pivotTable();

    await chooseOption(user, 'Cell', 'Uptime');
    expect(currentSearch(probe()).get('pivotCellType')).toBe('uptime');
    expect(within(table).getByRole('button', { name: 'api/backup, prod: 10%' })).toHaveTextContent('10%');
    expect(within(table).getByRole('button', { name: 'api/healthz, prod: 99%' })).toBeInTheDocument();

    await chooseOption(user, 'Cell', 'Latency');
    expect(within(table).getByRole('button', { name: 'web/home, staging: 120ms' })).toHaveTextContent('120ms');

    await chooseOption(user, 'Pivot By', 'None');
    expect(currentSearch(probe()).toString()).toBe('pivotCellType=latency');
    expect(await screen.findByRole('table', { name: 'Health checks' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Cell' })).not.toBeInTheDocument();
  });

  it("puts checks without a namespace under 'none' and shows '-' for a cell without runs", async () => {
    const bare = makeCheck({ id: 'a0000000-0000-4000-8000-000000000005', name: 'bare', namespace: null, uptime: { passed: 0, failed: 0 } });
    summaryResponse = () => HttpResponse.json(makeSummary([api, bare], { labels }));
    renderAtHealth(<HealthPage />, '/health?pivotBy=namespace&pivotCellType=uptime');
    const table = await pivotTable();
    await waitFor(() => expect(columnHeaders(table)).toEqual(['Checks', 'default', 'none']));
    expect(within(table).getByRole('button', { name: 'bare, none: no runs' })).toHaveTextContent('-');
  });

  it("shows 'No data available' when no check matches", async () => {
    summaryResponse = () => HttpResponse.json(makeSummary([]));
    renderAtHealth(<HealthPage />, '/health?pivotBy=type');
    const table = await pivotTable();
    expect(await within(table).findByText('No data available')).toBeInTheDocument();
  });
});
