import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { healthSettingsRoutes } from '../../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const CANARY_ID = '44444444-4444-4444-8444-444444444444';

const row = {
  id: CANARY_ID,
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

const canary = {
  id: CANARY_ID,
  name: 'web-checks',
  namespace: 'default',
  description: null,
  icon: null,
  labels: { team: 'web' },
  schedule: '@every 5m',
  source: 'UI',
  agent_id: null,
  spec: { schedule: '@every 5m', http: [{ name: 'home', url: 'https://example.com', responseCodes: [200] }] },
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

let recorded: RecordedRequest[] = [];
let listRows: unknown[] = [row];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

const server = setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/canaries_with_status', async ({ request }) => {
    await record(request);
    return HttpResponse.json(listRows);
  }),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.get('*/api/db/job_history', () => HttpResponse.json([])),
  http.get('*/api/canary/connections', () => HttpResponse.json({ data: [], total: 0 })),
  http.get('*/api/canary/canaries/:id', () => HttpResponse.json(canary)),
  http.post('*/api/canary/canaries', async ({ request }) => {
    await record(request);
    return HttpResponse.json(canary, { status: 201 });
  }),
  http.patch('*/api/canary/canaries/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json(canary);
  }),
  http.delete('*/api/canary/canaries/:id', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
);

afterEach(() => {
  recorded = [];
  listRows = [row];
});

function renderAt(path: string) {
  return renderRoutes(healthSettingsRoutes, path, { toaster: true }).router;
}

const requests = (method: string) => recorded.filter((request) => request.method === method);

describe('Health check settings pages', () => {
  it('lists canaries from canaries_with_status: undeleted, newest first, at most 100, without a Namespace column', async () => {
    renderAt('/settings/canaries');
    const table = await screen.findByRole('table', { name: 'Health Checks' });
    expect(await within(table).findByText('web-checks')).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Source', 'Schedule', 'Job Status', 'Last Run', 'Last Failed', 'Tags', 'Created', 'Updated', 'Created By']);
    expect(within(table).getByRole('button', { name: '(View details)' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: '+2 more' })).toBeInTheDocument();
    const params = requests('GET')[0]?.url.searchParams;
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('order')).toBe('created_at.desc');
    expect(params?.get('limit')).toBe('100');
  });

  it("shows 'No resources found' when there are none", async () => {
    listRows = [];
    renderAt('/settings/canaries');
    expect(await screen.findByText('No resources found')).toBeInTheDocument();
  });

  it('adds an HTTP check through the form, sending its spec and the current user as creator', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/canaries');
    await user.click(await screen.findByRole('button', { name: 'Add Health Check' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Health Check' });
    const [canaryName, checkName] = within(dialog).getAllByRole('textbox', { name: 'Name' });
    if (!canaryName || !checkName) throw new Error('name fields missing');
    await user.type(canaryName, 'storefront');
    await user.type(checkName, 'home page');
    await user.type(within(dialog).getByRole('textbox', { name: 'URL' }), 'https://shop.example.com');
    await user.click(within(dialog).getByRole('checkbox', { name: '200' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(requests('POST')).toHaveLength(1));
    expect(requests('POST')[0]?.body).toEqual({
      name: 'storefront',
      namespace: 'default',
      labels: {},
      spec: { http: [{ name: 'home page', url: 'https://shop.example.com', method: 'GET', responseCodes: [200] }] },
      schedule: null,
      icon: null,
      description: null,
      created_by: PERSON_ID,
    });
  });

  it("says under the canary's Name that it is longer than the server's 255 characters, and sends nothing", async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/canaries');
    await user.click(await screen.findByRole('button', { name: 'Add Health Check' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Health Check' });
    const [canaryName, checkName] = within(dialog).getAllByRole('textbox', { name: 'Name' });
    if (!canaryName || !checkName) throw new Error('name fields missing');
    await user.click(canaryName);
    await user.paste('c'.repeat(256));
    await user.type(checkName, 'home page');
    await user.type(within(dialog).getByRole('textbox', { name: 'URL' }), 'https://shop.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must be at most 255 characters')).toBeInTheDocument();
    expect(canaryName).toHaveAttribute('aria-invalid', 'true');
    expect(requests('POST')).toHaveLength(0);
  });

  it('requires the check URL and name, the tcp threshold to be at least 0 and a redis address as host:port', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/canaries');
    await user.click(await screen.findByRole('button', { name: 'Add Health Check' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Health Check' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(3));

    await user.click(within(dialog).getByRole('combobox', { name: 'Check Type' }));
    await user.click(await screen.findByRole('option', { name: 'TCP' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Threshold/ }), '-5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must be at least 0')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: 'Check Type' }));
    await user.click(await screen.findByRole('option', { name: 'Redis' }));
    expect(within(dialog).getByRole('textbox', { name: 'Database' })).toHaveValue('0');
    await user.type(within(dialog).getByRole('textbox', { name: /Address/ }), 'redis');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Address must be host:port')).toBeInTheDocument();
    expect(requests('POST')).toHaveLength(0);
  });

  it('updates a canary from its detail page and returns to the list', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/settings/canaries/${CANARY_ID}`);
    const form = await screen.findByRole('form', { name: 'Health Check spec' });
    const [canaryName] = within(form).getAllByRole('textbox', { name: 'Name' });
    expect(canaryName).toBeDisabled();
    expect(within(form).getByRole('textbox', { name: 'URL' })).toHaveValue('https://example.com');
    await user.click(within(form).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('web-checks updated successfully')).toBeInTheDocument();
    expect(requests('PATCH')[0]?.url.pathname).toBe(`/api/canary/canaries/${CANARY_ID}`);
    expect(requests('PATCH')[0]?.body).toMatchObject({ spec: canary.spec, schedule: '@every 5m', created_by: PERSON_ID });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/canaries'));
  });

  it('deletes a canary after confirmation and returns to the list', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/settings/canaries/${CANARY_ID}`);
    const form = await screen.findByRole('form', { name: 'Health Check spec' });
    await user.click(within(form).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Health Check' });
    expect(requests('DELETE')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('web-checks deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/canaries'));
  });

  it("shows 'No resources found' for an unknown id", async () => {
    server.use(http.get('*/api/canary/canaries/:id', () => HttpResponse.json({ code: 'OD404', message: 'Canary not found', details: null, hint: null }, { status: 404 })));
    renderAt(`/settings/canaries/${CANARY_ID}`);
    expect(await screen.findByText('No resources found')).toBeInTheDocument();
  });
});
