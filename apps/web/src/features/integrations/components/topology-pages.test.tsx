import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { TOPOLOGY_EXAMPLE_SPEC } from '../integration-kinds';
import { integrationsRoutes } from '../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';

const row = {
  id: '44444444-4444-4444-8444-444444444444',
  name: 'web-checks',
  namespace: 'default',
  labels: { team: 'web', env: 'prod', tier: 'front' },
  spec: {},
  icon: null,
  schedule: '@every 5m',
  source: 'UI',
  agent_id: null,
  agent: null,
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
  last_runtime: null,
  job_last_failed: null,
  job_status: 'FAILED',
  job_details: { errors: ['timeout'] },
  job_name: 'canary',
  deleted_at: null,
};

let recorded: RecordedRequest[] = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

const server = setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.get('*/api/db/job_history', () => HttpResponse.json([])),
);

afterEach(() => {
  recorded = [];
});

function renderAt(path: string) {
  return renderRoutes(integrationsRoutes, path, { toaster: true }).router;
}

const requests = (method: string) => recorded.filter((request) => request.method === method);

const TOPOLOGY_ID = '55555555-5555-4555-8555-555555555555';

const topologyRow = {
  ...row,
  id: TOPOLOGY_ID,
  name: 'shop',
  labels: { team: 'payments' },
  schedule: '@every 5m',
  job_status: 'SUCCESS',
  job_details: null,
  job_name: 'topology',
};

const topology = {
  id: TOPOLOGY_ID,
  name: 'shop',
  namespace: 'default',
  description: null,
  icon: null,
  labels: {},
  schedule: null,
  source: 'UI',
  agent_id: null,
  // An http lookup without display is what the schema refuses: it has nothing to make the components from.
  spec: { components: [{ name: 'web', lookup: { http: [{ url: 'https://example.com' }] } }] },
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
  deleted_at: null,
};

describe('Topology settings pages', () => {
  it('lists topologies from topologies_with_status, newest first, without a Schedule column', async () => {
    server.use(
      http.get('*/api/db/topologies_with_status', async ({ request }) => {
        await record(request);
        return HttpResponse.json([topologyRow]);
      }),
    );
    renderAt('/settings/topologies');
    const table = await screen.findByRole('table', { name: 'Topologies' });
    expect(await within(table).findByText('shop')).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Source', 'Namespace', 'Job Status', 'Last Run', 'Last Failed', 'Tags', 'Created', 'Updated', 'Created By']);
    const params = requests('GET')[0]?.url.searchParams;
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('order')).toBe('created_at.desc');
    expect(params?.get('limit')).toBe('100');
  });

  it('starts a new topology from a working example, requires a name, and saves it through the data API', async () => {
    server.use(
      http.get('*/api/db/topologies_with_status', () => HttpResponse.json([])),
      http.post('*/api/db/topologies', async ({ request }) => {
        await record(request);
        return new HttpResponse(null, { status: 201 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/topologies');
    await user.click(await screen.findByRole('button', { name: 'Add Topology' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Topology' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Spec' });
    expect(editor).toHaveTextContent('Kubernetes::Pod');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(requests('POST')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'storefront');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests('POST')).toHaveLength(1));
    expect(requests('POST')[0]?.url.pathname).toBe('/api/db/topologies');
    expect(requests('POST')[0]?.body).toEqual({
      name: 'storefront',
      namespace: 'default',
      labels: {},
      spec: TOPOLOGY_EXAMPLE_SPEC,
      created_by: PERSON_ID,
    });
  });

  it('underlines what the topology schema refuses in the spec editor', async () => {
    server.use(http.get('*/api/db/topologies', () => HttpResponse.json([topology])));
    const { container } = renderRoutes(integrationsRoutes, `/settings/topologies/${TOPOLOGY_ID}`, { toaster: true });
    await screen.findByRole('form', { name: 'Topology spec' });
    await waitFor(() => expect(container.querySelector('.cm-lintRange-error')).not.toBeNull());
    expect(screen.getByRole('tab', { name: 'Job History' })).toBeInTheDocument();
  });
});
