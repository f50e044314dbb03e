import '@/components/test-support/browser-polyfills';
import { Suspense } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Outlet } from 'react-router';
import type { CatalogChangesResponse } from '@opsdeck/shared';
import { IncidentLinkProvider, type IncidentLinkDialogProps, type LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { RolesAndFlagsLoaded, waitForRolesAndFlags } from '@/test/access-loaded';
import { readRequest, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { catalogRoutes } from '../../routes';
import type { ConfigDetail } from '../api/get-config-detail';

const CONFIG_ID = '22222222-2222-4222-8222-222222222222';
const MISSING_ID = '99999999-9999-4999-8999-999999999999';

const config: ConfigDetail = {
  id: CONFIG_ID,
  external_id: ['uid-1'],
  type: 'Kubernetes::Deployment',
  config_class: 'Kubernetes',
  name: 'checkout-api',
  description: 'Serves the checkout',
  status: 'Running',
  health: 'healthy',
  ready: true,
  parent_id: null,
  path: '',
  tags: { cluster: 'prod' },
  labels: { app: 'checkout' },
  properties: [{ name: 'Image', text: 'nginx:1.27' }],
  config: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10 },
  format: 'json',
  source: null,
  cost_per_minute: null,
  cost_total_1d: 1.5,
  cost_total_7d: 9.25,
  cost_total_30d: 40,
  last_scraped_time: new Date().toISOString(),
  delete_reason: null,
  created_by: null,
  created_at: '2026-01-02T10:00:00Z',
  updated_at: '2026-01-03T10:00:00Z',
  deleted_at: null,
  changes: 12,
  analysis: 3,
  relationships: 7,
  playbook_runs: 0,
  checks: 2,
  scraper_id: '33333333-3333-4333-8333-333333333333',
  scraper: { id: '33333333-3333-4333-8333-333333333333', name: 'demo-estate' },
  agent_id: null,
  agent: null,
};

let roles: string[] = ['editor'];
let flags: { name: string; value: string }[] = [];
const detailRequests: string[] = [];
const changeBodies: Record<string, unknown>[] = [];
/** Whether a log backend route matches the item: `config_items_with_logs` answers its row. */
let itemHasLogs = false;
const logsRequests: URL[] = [];

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json(flags)),
  http.get('*/api/db/config_detail', ({ request }) => {
    const url = new URL(request.url);
    detailRequests.push(url.search);
    return HttpResponse.json(url.searchParams.get('id') === `eq.${CONFIG_ID}` ? [config] : []);
  }),
  http.post('*/api/catalog/changes', async ({ request }) => {
    changeBodies.push((await readRequest(request)).body as Record<string, unknown>);
    const body: CatalogChangesResponse = { changes: [], total: 0, summary: { change_types: {}, severities: {} }, page: 1, page_size: 200 };
    return HttpResponse.json(body);
  }),
  http.get('*/api/db/people', () => HttpResponse.json([])),
  http.get('*/api/db/config_items_with_logs', ({ request }) => {
    const url = new URL(request.url);
    logsRequests.push(url);
    return HttpResponse.json(itemHasLogs && url.searchParams.get('id') === `eq.${CONFIG_ID}` ? [{ id: CONFIG_ID }] : []);
  }),
);

// The page and the editor load in chunks of their own; loading them once up front keeps each test within its waits.
beforeAll(async () => {
  await Promise.all([import('./config-detail-page'), import('@/components/code-editor/code-mirror-editor')]);
});

beforeEach(() => {
  window.innerWidth = 1440;
});

afterEach(() => {
  roles = ['editor'];
  flags = [];
  detailRequests.length = 0;
  changeBodies.length = 0;
  itemHasLogs = false;
  logsRequests.length = 0;
});

const linkedEvidence: LinkableEvidence[] = [];

function RecordingDialog({ evidence }: IncidentLinkDialogProps) {
  linkedEvidence.push(evidence);
  return <div role="dialog" aria-label="Link to Incident" />;
}

function renderPage(path: string) {
  return renderRoutes(
    [
      {
        element: (
          <IncidentLinkProvider component={() => null} dialog={RecordingDialog}>
            <RolesAndFlagsLoaded />
            <Suspense fallback={null}>
              <Outlet />
            </Suspense>
          </IncidentLinkProvider>
        ),
        children: catalogRoutes,
      },
    ],
    path,
  );
}

function lineNumber(container: HTMLElement, line: number): Element {
  const element = [...container.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].find((candidate) => candidate.textContent === String(line));
  if (element === undefined) throw new Error(`no line number ${line}`);
  return element;
}

describe('ConfigDetailPage', () => {
  it('shows the item with tab links counting its changes, insights, relationships, playbook runs and checks', async () => {
    renderPage(`/catalog/${CONFIG_ID}`);
    expect(await screen.findByRole('heading', { name: 'checkout-api' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Config tabs' });
    const names = within(tabs)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual(['Config', 'Changes12', 'Insights3', 'Relationships7', 'Playbooks0', 'Checks2']);
    expect(within(tabs).getByRole('link', { name: /^Changes/ })).toHaveAttribute('href', `/catalog/${CONFIG_ID}/changes`);
    expect(within(tabs).getByRole('link', { name: 'Config' })).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(document.title).toBe('checkout-api | Opsdeck'));
  });

  it('lists the facts of the item in the details panel, with its scraper linked', async () => {
    renderPage(`/catalog/${CONFIG_ID}`);
    const panel = await screen.findByRole('complementary', { name: 'Config details' });
    expect(within(panel).getByText('Serves the checkout')).toBeInTheDocument();
    expect(within(panel).getByText('cluster=prod')).toBeInTheDocument();
    expect(within(panel).getByText('nginx:1.27')).toBeInTheDocument();
    expect(within(panel).getByText('$9.25')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'demo-estate' })).toHaveAttribute('href', `/catalog/scrapers/${config.scraper?.id}`);
  });

  it("says 'Details not found' for an id no item has", async () => {
    renderPage(`/catalog/${MISSING_ID}`);
    expect(await screen.findByText('Details not found')).toBeInTheDocument();
  });

  it("says 'Details not found' for an id that is no uuid, without asking the server", async () => {
    const { queryClient } = renderPage('/catalog/not-a-uuid/changes');
    expect(await screen.findByText('Details not found')).toBeInTheDocument();
    // A request the page had started would keep its query fetching until the handler recorded and answered it.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(detailRequests).toEqual([]);
    expect(changeBodies).toEqual([]);
  });

  it('keeps the lines chosen in the gutter in the selected parameter and hands them to Link to incident', async () => {
    const user = userEvent.setup();
    const { container, router } = renderPage(`/catalog/${CONFIG_ID}`);
    await screen.findByRole('textbox', { name: 'Content of checkout-api' });
    fireEvent.mouseDown(lineNumber(container, 4));
    await waitFor(() => expect(router.state.location.search).toBe('?selected=4'));
    fireEvent.mouseDown(lineNumber(container, 6), { shiftKey: true });
    await waitFor(() => expect(router.state.location.search).toBe('?selected=4-6'));
    expect(screen.getByText('Lines 4-6 selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Link to incident' }));
    expect(await screen.findByRole('dialog', { name: 'Link to Incident' })).toBeInTheDocument();
    expect(linkedEvidence.at(-1)).toEqual({
      type: 'config',
      config_id: CONFIG_ID,
      description: 'checkout-api',
      evidence: {
        configName: 'checkout-api',
        lines: ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4,', '  "e": 5,', '  "f": 6,', '  "g": 7,', '  "h": 8,'],
        selected_lines: [3, 4, 5],
      },
    });
  });

  it('opens with the lines of the selected parameter highlighted, skipping what is no line', async () => {
    const { container } = renderPage(`/catalog/${CONFIG_ID}?selected=2-3,x,99`);
    await screen.findByRole('textbox', { name: 'Content of checkout-api' });
    expect(screen.getByText('Lines 2-3 selected')).toBeInTheDocument();
    await waitFor(() => expect([...container.querySelectorAll('.cm-line[data-selected]')].map((line) => line.textContent)).toEqual(['  "a": 1,', '  "b": 2,']));
  });

  it('offers View logs where a log backend route matches the item, opening the logs page on it', async () => {
    itemHasLogs = true;
    renderPage(`/catalog/${CONFIG_ID}`);
    const link = await screen.findByRole('link', { name: 'View logs' });
    expect(link).toHaveAttribute('href', `/logs?topologyId=${CONFIG_ID}`);
    expect(logsRequests[0]?.searchParams.get('select')).toBe('id');
    expect(logsRequests[0]?.searchParams.get('id')).toBe(`eq.${CONFIG_ID}`);
  });

  it('offers no View logs where no log backend route matches the item', async () => {
    renderPage(`/catalog/${CONFIG_ID}`);
    await screen.findByRole('heading', { name: 'checkout-api' });
    await waitFor(() => expect(logsRequests).toHaveLength(1));
    await waitForRolesAndFlags();
    expect(screen.queryByRole('link', { name: 'View logs' })).not.toBeInTheDocument();
  });

  it('hides View logs, without asking, while the logs area is switched off', async () => {
    itemHasLogs = true;
    flags = [{ name: 'logs.disable', value: 'true' }];
    renderPage(`/catalog/${CONFIG_ID}`);
    await screen.findByRole('textbox', { name: 'Content of checkout-api' });
    await waitForRolesAndFlags();
    expect(screen.queryByRole('link', { name: 'View logs' })).not.toBeInTheDocument();
    expect(logsRequests).toEqual([]);
  });

  it('hides Link to incident from a viewer', async () => {
    roles = ['viewer'];
    renderPage(`/catalog/${CONFIG_ID}`);
    await screen.findByRole('textbox', { name: 'Content of checkout-api' });
    await waitForRolesAndFlags();
    expect(screen.queryByRole('button', { name: 'Link to incident' })).not.toBeInTheDocument();
  });

  it('hides Link to incident while the incidents area is switched off', async () => {
    flags = [{ name: 'incidents.disable', value: 'true' }];
    renderPage(`/catalog/${CONFIG_ID}`);
    await screen.findByRole('textbox', { name: 'Content of checkout-api' });
    await waitForRolesAndFlags();
    expect(screen.queryByRole('button', { name: 'Link to incident' })).not.toBeInTheDocument();
  });

  it('asks for downstream changes first and follows the Upstream and Downstream toggles', async () => {
    const user = userEvent.setup();
    const { router } = renderPage(`/catalog/${CONFIG_ID}/changes`);
    await waitFor(() => expect(changeBodies.at(-1)).toMatchObject({ id: CONFIG_ID, recursive: true, type_filter: 'downstream', from: 'now-1mo' }));
    // The badge counts this item's own changes; the list says it also holds those downstream, so the two never seem to disagree.
    expect(await screen.findByText(/this list also shows the changes of the items downstream of it/)).toHaveTextContent(/^The tab's count, \d+, is this item's own changes over all time/);

    await user.click(await screen.findByRole('switch', { name: 'Upstream' }));
    await waitFor(() => expect(changeBodies.at(-1)).toMatchObject({ id: CONFIG_ID, recursive: true, type_filter: 'all' }));
    expect(router.state.location.search).toBe('?upstream=true');

    await user.click(screen.getByRole('switch', { name: 'Downstream' }));
    await waitFor(() => expect(changeBodies.at(-1)).toMatchObject({ id: CONFIG_ID, recursive: true, type_filter: 'upstream' }));

    await user.click(screen.getByRole('switch', { name: 'Upstream' }));
    await waitFor(() => expect(changeBodies.at(-1)).toMatchObject({ id: CONFIG_ID, recursive: false }));
    expect(screen.getByText(/this list shows them in the chosen time range/)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?downstream=false');
  });

  it('closes the details panel on Escape and brings it back with Show Sidebar', async () => {
    const user = userEvent.setup();
    renderPage(`/catalog/${CONFIG_ID}`);
    expect(await screen.findByRole('complementary', { name: 'Config details' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Config details' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Sidebar' }));
    expect(screen.getByRole('complementary', { name: 'Config details' })).toBeInTheDocument();
  });

  it('folds the details panel away when the window narrows below 1280 px and brings it back when it widens', async () => {
    const listeners = new Set<(event: MediaQueryListEvent) => void>();
    const media = {
      matches: true,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
    };
    const original = window.matchMedia;
    window.matchMedia = (() => media) as unknown as typeof window.matchMedia;
    try {
      renderPage(`/catalog/${CONFIG_ID}`);
      expect(await screen.findByRole('complementary', { name: 'Config details' })).toBeInTheDocument();
      const cross = (matches: boolean) => act(() => listeners.forEach((listener) => listener({ matches } as MediaQueryListEvent)));
      cross(false);
      expect(screen.queryByRole('complementary', { name: 'Config details' })).not.toBeInTheDocument();
      cross(true);
      expect(screen.getByRole('complementary', { name: 'Config details' })).toBeInTheDocument();
    } finally {
      window.matchMedia = original;
    }
  });

  it('keeps the details panel behind Show Sidebar below 1280 px and closes it on a click outside', async () => {
    const user = userEvent.setup();
    window.innerWidth = 1024;
    renderPage(`/catalog/${CONFIG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Show Sidebar' }));
    const panel = screen.getByRole('complementary', { name: 'Config details' });
    await user.click(within(panel).getByText('Serves the checkout'));
    expect(screen.getByRole('complementary', { name: 'Config details' })).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { name: 'checkout-api' }));
    expect(screen.queryByRole('complementary', { name: 'Config details' })).not.toBeInTheDocument();
  });
});
