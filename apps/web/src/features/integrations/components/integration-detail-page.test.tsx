import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { integrationsRoutes } from '../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const TOPOLOGY_ID = '33333333-3333-4333-8333-333333333333';
const SCRAPER_ID = '22222222-2222-4222-8222-222222222222';
const BACKEND_ID = '66666666-6666-4666-8666-666666666666';
const AGENT_ID = '77777777-7777-4777-8777-777777777777';

const topology = {
  id: TOPOLOGY_ID,
  name: 'shop',
  namespace: 'default',
  description: null,
  icon: null,
  labels: { team: 'payments' },
  schedule: null,
  source: 'UI',
  agent_id: null,
  spec: { type: 'Application', components: [{ name: 'web', type: 'Service' }] },
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
  deleted_at: null,
};

const scraper = { ...topology, id: SCRAPER_ID, name: 'cluster-configs', spec: { file: [{ type: 'File', paths: ['/etc/app/*.yaml'] }] } };

let roles: readonly string[] = ['editor'];
let recorded: RecordedRequest[] = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/topologies', () => HttpResponse.json([topology])),
  http.get('*/api/db/config_scrapers', () => HttpResponse.json([scraper])),
  http.get('*/api/db/job_history', async ({ request }) => {
    await record(request);
    return HttpResponse.json([
      { id: 'r1', name: 'TopologyRun', status: 'SUCCESS', time_start: '2024-01-06T10:00:00Z', duration_millis: 900, success_count: 3, error_count: 0, created_at: '2024-01-06T10:00:00Z', details: null },
    ]);
  }),
  http.patch('*/api/db/:table', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.delete('*/api/db/:table', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('*/api/db/integrations_with_status', () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } })),
);

afterEach(() => {
  roles = ['editor'];
  recorded = [];
});

function renderAt(path: string) {
  return renderRoutes(integrationsRoutes, path, { toaster: true }).router;
}

const requests = (method: string) => recorded.filter((request) => request.method === method);

describe('Integration detail page', () => {
  it("says 'Unknown type' for a type other than logging_backends, topologies or scrapers", async () => {
    renderAt(`/settings/integrations/widgets/${TOPOLOGY_ID}`);
    expect(await screen.findByRole('alert', undefined)).toHaveTextContent('Unknown type');
    expect(document.title).toContain('Unknown type');
  });

  it("shows a topology's Spec tab with the topology form, and its Job History tab with that topology's runs", async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/integrations/topologies/${TOPOLOGY_ID}`);
    const form = await screen.findByRole('form', { name: 'Topology spec' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('shop');
    expect(within(form).getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Integrations' })).toHaveAttribute('href', '/settings/integrations');
    await user.click(screen.getByRole('tab', { name: 'Job History' }));
    expect(await screen.findByText('TopologyRun')).toBeInTheDocument();
    expect(requests('GET').at(-1)?.url.searchParams.get('resource_id')).toBe(`eq.${TOPOLOGY_ID}`);
  });

  it('updates a topology through the data API and returns to the integrations list', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/settings/integrations/topologies/${TOPOLOGY_ID}`);
    const form = await screen.findByRole('form', { name: 'Topology spec' });
    await user.click(within(form).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('shop updated successfully')).toBeInTheDocument();
    const patch = requests('PATCH')[0];
    expect(patch?.url.pathname).toBe('/api/db/topologies');
    expect(patch?.url.searchParams.get('id')).toBe(`eq.${TOPOLOGY_ID}`);
    expect(patch?.body).toMatchObject({ name: 'shop', spec: topology.spec, created_by: PERSON_ID });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations'));
  });

  it('deletes a scraper after confirmation and returns to the integrations list', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/settings/integrations/scrapers/${SCRAPER_ID}`);
    const form = await screen.findByRole('form', { name: 'Catalog Scraper spec' });
    await user.click(within(form).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Catalog Scraper' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('cluster-configs deleted successfully')).toBeInTheDocument();
    expect(requests('DELETE')[0]?.url.pathname).toBe('/api/db/config_scrapers');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations'));
  });

  it('shows a kubernetes-defined scraper as linked and read-only, without Update or Delete', async () => {
    server.use(http.get('*/api/db/config_scrapers', () => HttpResponse.json([{ ...scraper, source: 'KubernetesCRD' }])));
    renderAt(`/settings/integrations/scrapers/${SCRAPER_ID}`);
    const form = await screen.findByRole('form', { name: 'Catalog Scraper spec' });
    expect(screen.getByText('Linked to Kubernetes (KubernetesCRD)')).toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(await within(form).findByRole('textbox', { name: 'Spec' })).toHaveAttribute('aria-readonly', 'true');
  });

  it('links a topology an agent pushed to that agent and shows it read-only', async () => {
    server.use(http.get('*/api/db/topologies', () => HttpResponse.json([{ ...topology, agent_id: AGENT_ID }])));
    renderAt(`/settings/integrations/topologies/${TOPOLOGY_ID}`);
    const form = await screen.findByRole('form', { name: 'Topology spec' });
    expect(screen.getByRole('link', { name: /Linked to Agent/ })).toHaveAttribute('href', `/settings/agents?id=${AGENT_ID}`);
    expect(within(form).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });

  it('opens a log backend with the log backend form, and updates it without created_by, created_at or updated_at', async () => {
    const backend = { ...topology, id: BACKEND_ID, name: 'app-files', spec: { file: { paths: ['/var/lib/opsdeck/logs/app/*.log'] } } };
    server.use(http.get('*/api/db/logging_backends', () => HttpResponse.json([backend])));
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/settings/integrations/logging_backends/${BACKEND_ID}`);
    const form = await screen.findByRole('form', { name: 'Log Backend spec' });
    const update = within(form).getByRole('button', { name: 'Update' });
    await waitFor(() => expect(update).toBeEnabled());
    await user.click(update);
    await waitFor(() => expect(requests('PATCH')).toHaveLength(1));
    expect(requests('PATCH')[0]?.url.pathname).toBe('/api/db/logging_backends');
    expect(requests('PATCH')[0]?.body).toEqual({ name: 'app-files', namespace: 'default', labels: { team: 'payments' }, spec: backend.spec });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations'));
  });

  it('shows the Unauthorized panel to a commander, who may not write integrations', async () => {
    roles = ['commander'];
    renderAt(`/settings/integrations/topologies/${TOPOLOGY_ID}`);
    expect(await screen.findByRole('heading', { name: 'Unauthorized' })).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});
