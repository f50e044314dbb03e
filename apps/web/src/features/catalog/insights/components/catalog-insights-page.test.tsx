import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { encodeTristate } from '@opsdeck/shared';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { InsightRow } from '../api/get-insights';
import { CatalogInsightsPage } from './catalog-insights-page';

const CONFIG_ID = '22222222-2222-4222-8222-222222222222';
const COMPONENT_ID = '55555555-5555-4555-8555-555555555555';
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

function insight(overrides: Partial<InsightRow>): InsightRow {
  return {
    id: crypto.randomUUID(),
    config_id: CONFIG_ID,
    analyzer: 'crashloop',
    analysis_type: 'availability',
    severity: 'critical',
    status: 'open',
    summary: 'Container in CrashLoopBackOff',
    message: 'checkout restarted 4 times in 1h',
    source: 'kubernetes',
    first_observed: hoursAgo(3),
    last_observed: hoursAgo(1),
    config_name: 'checkout-7d9f',
    config_type: 'Kubernetes::Pod',
    config_class: 'Pod',
    config_deleted_at: null,
    analysis: { restarts: 4, lastState: 'OOMKilled' },
    ...overrides,
  };
}

const requests: URL[] = [];
let respond: (url: URL) => Response = () => rows([insight({})], 1);

function rows(data: InsightRow[], total: number, from = 0): Response {
  return HttpResponse.json(data, { headers: { 'Content-Range': data.length === 0 ? `*/${total}` : `${from}-${from + data.length - 1}/${total}` } });
}

function listHandler({ request }: { request: Request }) {
  const url = new URL(request.url);
  requests.push(url);
  return respond(url);
}

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('*/api/db/config_analysis_items', listHandler),
  http.get('*/api/db/analysis_by_component', listHandler),
  http.get('*/api/db/config_types', () => HttpResponse.json([{ type: 'Kubernetes::Pod' }, { type: 'AWS::EC2::Instance' }])),
  http.get('*/api/db/config_analysis_analyzers', () => HttpResponse.json([{ analyzer: 'crashloop' }, { analyzer: 'ec2-rightsizing' }])),
  http.get('*/api/db/components', () => HttpResponse.json([{ id: COMPONENT_ID, name: 'Checkout' }])),
);

function renderPage(path = '/catalog/insights') {
  requests.length = 0;
  return renderRoutes(
    [
      { path: '/catalog/insights', element: <CatalogInsightsPage /> },
      { path: '/catalog/:id', element: <p>config page</p> },
    ],
    path,
  );
}

const lastRequest = () => requests.at(-1) ?? new URL('http://localhost/');

describe('Catalog insights page', () => {
  it('asks for 50 insights, newest first, counted exactly, and shows every column', async () => {
    respond = () => rows([insight({})], 1);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Insights' });
    await within(table).findByText('checkout-7d9f');
    const url = lastRequest();
    expect(url.searchParams.get('order')).toBe('first_observed.desc,id.asc');
    expect(url.searchParams.get('offset')).toBe('0');
    expect(url.searchParams.get('limit')).toBe('50');
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Catalog', 'Type', 'Analyzer', 'Severity', 'Status', 'First Observed', 'Last Observed']);
    expect(within(table).getByRole('link', { name: 'checkout-7d9f' })).toHaveAttribute('href', `/catalog/${CONFIG_ID}`);
    expect(within(table).getByRole('img', { name: 'Kubernetes::Pod' })).toBeInTheDocument();
    expect(within(table).getByText('availability')).toBeInTheDocument();
    expect(within(table).getByText('crashloop')).toBeInTheDocument();
  });

  it('colours each severity as spec 002 §3 says and marks deleted configs', async () => {
    const severities = ['critical', 'high', 'warning', 'info', 'low', 'medium'] as const;
    respond = () => rows([...severities.map((severity) => insight({ severity, analyzer: `a-${severity}` })), insight({ config_name: 'gone', config_deleted_at: hoursAgo(5) })], 7);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Insights' });
    await within(table).findByText('a-critical');
    const colour = (severity: string) => within(table).getAllByText(severity)[0]?.getAttribute('data-color');
    expect(severities.map(colour)).toEqual(['red', 'orange', 'yellow', 'gray', 'green', 'green']);
    const deletedRow = within(table).getByRole('link', { name: 'gone' }).closest('tr');
    expect(deletedRow && within(deletedRow).getByText('Deleted')).toBeInTheDocument();
  });

  it('writes a filter to the URL, sends it to the server and goes back to the first page', async () => {
    respond = () => rows([insight({})], 120);
    const { router } = renderPage('/catalog/insights?pageIndex=2');
    await screen.findByText('checkout-7d9f');
    expect(lastRequest().searchParams.get('offset')).toBe('100');

    await userEvent.click(within(screen.getByRole('group', { name: 'Filters' })).getByRole('button', { name: /^Severity/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Include critical' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Exclude info' }));
    await waitFor(() => expect(router.state.location.search).toBe('?severity=critical%3A1%2Cinfo%3A-1'));
    await waitFor(() => expect(lastRequest().searchParams.getAll('severity')).toEqual(['in.(critical)', 'not.in.("info")']));
    expect(lastRequest().searchParams.get('offset')).toBe('0');
  });

  it('sends config type, analyzer and status from the URL', async () => {
    respond = () => rows([insight({})], 1);
    const query = new URLSearchParams({ configType: encodeTristate({ 'Kubernetes::Pod': 1 }), analyzer: 'crashloop:1', status: 'resolved:-1' });
    renderPage(`/catalog/insights?${query.toString()}`);
    await screen.findByText('checkout-7d9f');
    const params = lastRequest().searchParams;
    expect(params.get('config_type')).toBe('in.(Kubernetes::Pod)');
    expect(params.get('analyzer')).toBe('in.(crashloop)');
    expect(params.get('status')).toBe('not.in.("resolved")');
  });

  it('reads a component filter from analysis_by_component, still paged by the server', async () => {
    respond = () => rows([insight({})], 1);
    const { router } = renderPage();
    await screen.findByText('checkout-7d9f');
    await userEvent.click(screen.getByRole('combobox', { name: 'Component' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Checkout' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?component=${COMPONENT_ID}`));
    await waitFor(() => expect(lastRequest().pathname).toBe('/api/db/analysis_by_component'));
    expect(lastRequest().searchParams.get('component_id')).toBe(`eq.${COMPONENT_ID}`);
    expect(lastRequest().searchParams.get('limit')).toBe('50');
  });

  it('pages by pageIndex from 0 and keeps a chosen pageSize in the URL', async () => {
    respond = (url) => rows([insight({ analyzer: `page-${url.searchParams.get('offset')}` })], 120, Number(url.searchParams.get('offset')));
    const { router } = renderPage('/catalog/insights?pageSize=25');
    await screen.findByText('page-0');
    expect(lastRequest().searchParams.get('limit')).toBe('25');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('page-25');
    expect(router.state.location.search).toBe('?pageSize=25&pageIndex=1');
  });

  it('shows the failed query’s message in place of the table', async () => {
    respond = () => HttpResponse.json({ code: 'OD_DB_TIMEOUT', message: 'canceling statement due to statement timeout' }, { status: 500 });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Insights could not be loaded: canceling statement due to statement timeout');
    expect(screen.queryByRole('table', { name: 'Insights' })).not.toBeInTheDocument();
  });

  it('opens a row in a detail panel with the first 500 characters of a long message, the rest on request, and closes on Escape', async () => {
    const message = `${'a'.repeat(500)}${'b'.repeat(100)}`;
    respond = () => rows([insight({ message, source: 'kubernetes-scraper' })], 1);
    renderPage();
    await userEvent.click(await screen.findByText('crashloop'));
    const dialog = await screen.findByRole('dialog', { name: 'Container in CrashLoopBackOff' });
    const text = within(dialog).getByTestId('insight-message');
    expect(text.textContent).toBe(`${'a'.repeat(500)}…`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show all 600 characters' }));
    expect(text.textContent).toBe(message);
    expect(within(within(dialog).getByRole('region', { name: 'Analysis' })).getByText(/"lastState": "OOMKilled"/)).toBeInTheDocument();
    expect(within(dialog).getByText('kubernetes-scraper')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'checkout-7d9f' })).toHaveAttribute('href', `/catalog/${CONFIG_ID}`);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the catalog tabs with Insights as the open one', async () => {
    renderPage();
    const tabs = screen.getByRole('navigation', { name: 'Catalog pages' });
    expect(within(tabs).getByRole('link', { name: 'Insights' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Changes' })).not.toHaveAttribute('aria-current');
    await screen.findByText('checkout-7d9f');
  });
});
