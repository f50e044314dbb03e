import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { InsightRow } from '../api/get-insights';
import { ConfigInsightsTab } from './config-insights-tab';

const CONFIG_ID = '22222222-2222-4222-8222-222222222222';
const TOTAL = 120;

function insight(index: number): InsightRow {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    config_id: CONFIG_ID,
    analyzer: `analyzer-${index}`,
    analysis_type: 'security',
    severity: 'high',
    status: 'open',
    summary: `Finding ${index}`,
    message: null,
    source: null,
    first_observed: new Date(Date.now() - index * 60_000).toISOString(),
    last_observed: new Date().toISOString(),
    config_name: 'checkout-api',
    config_type: 'Kubernetes::Deployment',
    config_class: 'Deployment',
    config_deleted_at: null,
    analysis: null,
  };
}

const requests: URL[] = [];
let failWith: string | null = null;

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('*/api/db/config_analysis_items', ({ request }) => {
    const url = new URL(request.url);
    requests.push(url);
    if (failWith !== null) return HttpResponse.json({ code: 'OD_DB', message: failWith }, { status: 500 });
    const from = Number(url.searchParams.get('offset'));
    const to = Math.min(from + Number(url.searchParams.get('limit')), TOTAL);
    const data = Array.from({ length: to - from }, (_, index) => insight(from + index));
    return HttpResponse.json(data, { headers: { 'Content-Range': `${from}-${to - 1}/${TOTAL}` } });
  }),
  http.get('*/api/db/config_analysis_analyzers', () => HttpResponse.json([{ analyzer: 'analyzer-0' }])),
);

function renderTab(path = `/catalog/${CONFIG_ID}/insights`) {
  requests.length = 0;
  return renderRoutes([{ path: '/catalog/:id/insights', element: <ConfigInsightsTab configId={CONFIG_ID} /> }], path);
}

/** jsdom lays nothing out, so the scrolling body is given the sizes a browser would measure. */
function scrollTo(element: HTMLElement, { scrollHeight, clientHeight, scrollTop }: { scrollHeight: number; clientHeight: number; scrollTop: number }) {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: clientHeight });
  element.scrollTop = scrollTop;
  fireEvent.scroll(element);
}

describe('Config insights tab', () => {
  it('asks for this config’s first 50 insights and leaves out the Catalog column', async () => {
    failWith = null;
    renderTab();
    const table = await screen.findByRole('table', { name: 'Config insights' });
    await within(table).findByText('analyzer-0');
    const url = requests[0];
    expect(url?.searchParams.get('config_id')).toBe(`eq.${CONFIG_ID}`);
    expect(url?.searchParams.get('limit')).toBe('50');
    expect(url?.searchParams.get('order')).toBe('first_observed.desc,id.asc');
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Type', 'Analyzer', 'Severity', 'Status', 'First Observed', 'Last Observed']);
    expect(screen.getByRole('status')).toHaveTextContent('50 of 120 insights');
  });

  it('loads the next page once scrolled within 300 px of the end, and not before', async () => {
    failWith = null;
    const { queryClient } = renderTab();
    const table = await screen.findByRole('table', { name: 'Config insights' });
    await within(table).findByText('analyzer-0');
    const scroller = table.parentElement;
    if (!scroller) throw new Error('the table has no scrolling body');

    // 301 px left below the view. The tab decides within the scroll event: a next page asked for would be fetching now.
    scrollTo(scroller, { scrollHeight: 2000, clientHeight: 500, scrollTop: 1199 });
    expect(queryClient.isFetching()).toBe(0);
    expect(requests).toHaveLength(1);

    // 300 px left.
    scrollTo(scroller, { scrollHeight: 2000, clientHeight: 500, scrollTop: 1200 });
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]?.searchParams.get('offset')).toBe('50');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('100 of 120 insights'));
  });

  it('loads more from a button, and offers none once every insight is loaded', async () => {
    failWith = null;
    renderTab();
    await screen.findByText('analyzer-0');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('100 of 120 insights'));
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('120 of 120 insights'));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests.map((url) => url.searchParams.get('offset'))).toEqual(['0', '50', '100']);
  });

  it('writes a severity filter to the URL and sends it with the config id', async () => {
    failWith = null;
    const { router } = renderTab();
    await screen.findByText('analyzer-0');
    await userEvent.click(within(screen.getByRole('group', { name: 'Filters' })).getByRole('button', { name: /^Severity/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Include high' }));
    await waitFor(() => expect(router.state.location.search).toBe('?severity=high%3A1'));
    await waitFor(() => expect(requests.at(-1)?.searchParams.get('severity')).toBe('in.(high)'));
    expect(requests.at(-1)?.searchParams.get('config_id')).toBe(`eq.${CONFIG_ID}`);
    expect(screen.queryByRole('button', { name: /^Config Type/ })).not.toBeInTheDocument();
  });

  it('shows the failed query’s message in place of the table', async () => {
    failWith = 'permission denied for view config_analysis_items';
    renderTab();
    expect(await screen.findByRole('alert')).toHaveTextContent('Insights could not be loaded: permission denied for view config_analysis_items');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
