import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { integrationsRoutes } from '../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const SCRAPER_ID = '22222222-2222-4222-8222-222222222222';
const TOPOLOGY_ID = '33333333-3333-4333-8333-333333333333';
const AGENT_ID = '77777777-7777-4777-8777-777777777777';

const scraperRow = {
  id: SCRAPER_ID,
  name: 'cluster-configs',
  namespace: 'default',
  source: 'UI',
  agent_id: AGENT_ID,
  agent: { id: AGENT_ID, name: 'eu-cluster' },
  integration_type: 'scrapers',
  job_status: 'FAILED',
  job_details: { errors: ['timeout'] },
  job_name: 'scraper',
  job_time_start: '2024-01-06T10:00:00Z',
  last_runtime: '2024-01-06T10:00:00Z',
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

const topologyRow = {
  ...scraperRow,
  id: TOPOLOGY_ID,
  name: 'shop',
  agent_id: null,
  agent: null,
  integration_type: 'topologies',
  job_status: 'SUCCESS',
  job_details: null,
};

let roles: readonly string[] = ['editor'];
let recorded: RecordedRequest[] = [];
let total = 120;

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/integrations_with_status', async ({ request }) => {
    const recordedRequest = await readRequest(request);
    recorded.push(recordedRequest);
    const offset = Number(recordedRequest.url.searchParams.get('offset') ?? '0');
    const rows = offset === 0 ? [scraperRow, topologyRow] : [{ ...topologyRow, id: '99999999-9999-4999-8999-999999999999', name: 'page-two' }];
    const prefersCount = request.headers.get('Prefer')?.includes('count=exact') ?? false;
    return HttpResponse.json(rows, { status: 206, headers: prefersCount ? { 'Content-Range': `${offset}-${offset + rows.length - 1}/${total}` } : {} });
  }),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
);

afterEach(() => {
  roles = ['editor'];
  recorded = [];
  total = 120;
});

function renderAt(path: string) {
  return renderRoutes(integrationsRoutes, path, { toaster: true }).router;
}

describe('Integrations list', () => {
  it('reads a page of integrations_with_status by limit and offset, undeleted and newest first, with the total from the count header', async () => {
    renderAt('/settings/integrations');
    const table = await screen.findByRole('table', { name: 'Integrations' });
    expect(await within(table).findByText('cluster-configs')).toBeInTheDocument();
    const params = recorded[0]?.url.searchParams;
    expect(params?.get('limit')).toBe('50');
    expect(params?.get('offset')).toBe('0');
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('order')).toMatch(/^created_at\.desc/);
    expect(screen.getByText('120 items')).toBeInTheDocument();
    expect(screen.getByText('of 3')).toBeInTheDocument();
  });

  it('shows each row with its type icon, agent badge, type, source, namespace and the latest job with its details link', async () => {
    renderAt('/settings/integrations');
    const table = await screen.findByRole('table', { name: 'Integrations' });
    const row = (await within(table).findByText('cluster-configs')).closest('tr') as HTMLElement;
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Type', 'Source', 'Namespace', 'Job Status', 'Last Run', 'Created By', 'Created', 'Updated']);
    expect(within(row).getByRole('img', { name: 'Catalog Scraper' })).toBeInTheDocument();
    expect(within(row).getByText('eu-cluster')).toBeInTheDocument();
    expect(within(row).getByText('Catalog Scraper')).toBeInTheDocument();
    expect(within(row).getByText('FAILED')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: '(View details)' })).toBeInTheDocument();
    const topology = within(table).getByText('shop').closest('tr') as HTMLElement;
    expect(within(topology).queryByRole('button', { name: '(View details)' })).not.toBeInTheDocument();
  });

  it('asks for the next page with the offset and keeps the page in the URL', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt('/settings/integrations');
    await screen.findByText('cluster-configs', undefined);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('page-two')).toBeInTheDocument();
    expect(recorded.at(-1)?.url.searchParams.get('offset')).toBe('50');
    expect(router.state.location.search).toBe('?page=2');
  });

  it('offers Add Integration to an editor, who may write integrations', async () => {
    renderAt('/settings/integrations');
    expect(await screen.findByRole('button', { name: 'Add Integration' })).toBeInTheDocument();
  });

  it('hides Add Integration from a commander, who may read integrations but not write them', async () => {
    roles = ['commander'];
    renderAt('/settings/integrations');
    await screen.findByText('cluster-configs', undefined);
    expect(screen.queryByRole('button', { name: 'Add Integration' })).not.toBeInTheDocument();
  });

  it('opens an integration at /settings/integrations/{type}/{id}', async () => {
    const user = userEvent.setup({ delay: null });
    server.use(http.get('*/api/db/config_scrapers', () => HttpResponse.json([])));
    const router = renderAt('/settings/integrations');
    await user.click(await screen.findByText('cluster-configs', undefined));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/settings/integrations/scrapers/${SCRAPER_ID}`));
  });

  it("says 'No data available' when there are no integrations", async () => {
    total = 0;
    server.use(http.get('*/api/db/integrations_with_status', () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } })));
    renderAt('/settings/integrations');
    expect(await screen.findByText('No data available', undefined)).toBeInTheDocument();
  });

  it("shows the server's message when the list cannot be read, with a way to try again", async () => {
    server.use(
      http.get('*/api/db/integrations_with_status', () =>
        HttpResponse.json({ code: '42501', message: 'permission denied for view integrations_with_status', details: null, hint: null }, { status: 403 }),
      ),
    );
    renderAt('/settings/integrations');
    const alert = await screen.findByRole('alert', undefined);
    expect(alert).toHaveTextContent('Integrations could not be loaded: permission denied for view integrations_with_status');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
