import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { connectionsRoutes } from '../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const CONNECTION_ID = '22222222-2222-4222-8222-222222222222';

const stored = {
  id: CONNECTION_ID,
  name: 'orders-db',
  namespace: 'payments',
  type: 'postgres',
  url: 'postgres://db:5432/orders',
  username: 'orders',
  insecure_tls: false,
  properties: { embedded: 'false' },
  password_set: true,
  certificate_set: false,
  secret_properties_set: [],
  source: 'UI',
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

let roles = ['admin'];
let storedSource = 'UI';
let recorded: RecordedRequest[] = [];
let testResponse: () => Response = () => HttpResponse.json({ message: 'ok', details: {} });

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/canary/connections', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ data: [{ ...stored, source: storedSource }], total: 1 });
  }),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.post('*/api/canary/connections', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ ...stored, id: '33333333-3333-4333-8333-333333333333' }, { status: 201 });
  }),
  http.patch('*/api/canary/connections/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json(stored);
  }),
  http.delete('*/api/canary/connections/:id', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/canary/connection/test/:id', async ({ request }) => {
    await record(request);
    return testResponse();
  }),
  http.post('*/api/canary/connection/test', async ({ request }) => {
    await record(request);
    return testResponse();
  }),
);

afterEach(() => {
  roles = ['admin'];
  storedSource = 'UI';
  recorded = [];
  testResponse = () => HttpResponse.json({ message: 'ok', details: {} });
});

function renderPage() {
  renderRoutes(connectionsRoutes, '/settings/connections', { toaster: true });
}

const requests = (method: string, path?: string) =>
  recorded.filter((request) => request.method === method && (path === undefined || request.url.pathname === path));

async function openNewConnection(user: ReturnType<typeof userEvent.setup>, typeLabel: string) {
  await user.click(await screen.findByRole('button', { name: 'Add Connection' }));
  const panel = await screen.findByRole('dialog', { name: 'Add Connection' });
  await user.click(within(panel).getByRole('button', { name: typeLabel }));
  return panel;
}

describe('Connections page', () => {
  it('lists connections with the spec columns, the type and the creator', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Connections' });
    expect(await within(table).findByText('orders-db')).toBeInTheDocument();
    for (const header of ['Name', 'Namespace', 'Type', 'Created By', 'Created', 'Updated']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(within(table).getByText('Postgres')).toBeInTheDocument();
    expect(await within(table).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(requests('GET', '/api/canary/connections')[0]?.url.searchParams.get('limit')).toBe('50');
  });

  it('shows the Unauthorized panel to a viewer and never asks for connections', async () => {
    roles = ['viewer'];
    renderPage();
    expect(await screen.findByText('Unauthorized')).toBeInTheDocument();
    expect(requests('GET', '/api/canary/connections')).toHaveLength(0);
  });

  it('offers the connection types five per row and goes back to the grid from a new form', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Connection' }));
    const panel = await screen.findByRole('dialog', { name: 'Add Connection' });
    const grids = within(panel).getAllByRole('list');
    expect(grids[0]).toHaveClass('grid-cols-5');
    expect(within(panel).queryByRole('button', { name: 'JMeter' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Redis' }));
    await user.click(within(panel).getByRole('button', { name: 'Back' }));
    expect(within(panel).getByRole('button', { name: 'Postgres' })).toBeInTheDocument();
  });

  it('saves a new postgres connection with its fields and the default namespace', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    const panel = await openNewConnection(user, 'Postgres');
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'analytics');
    await user.type(within(panel).getByRole('textbox', { name: /^URL/ }), 'postgres://127.0.0.1:5432/postgres');
    await user.type(within(panel).getByRole('textbox', { name: /^Username/ }), 'postgres');
    await user.type(within(panel).getByLabelText(/^Password\*?$/), 's3cret ');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Connection added successfully')).toBeInTheDocument();
    expect(requests('POST', '/api/canary/connections')[0]?.body).toEqual({
      name: 'analytics',
      namespace: 'default',
      type: 'postgres',
      url: 'postgres://127.0.0.1:5432/postgres',
      username: 'postgres',
      password: 's3cret ',
      insecure_tls: false,
      properties: {},
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Connection' })).not.toBeInTheDocument());
  });

  it('sends the per-type defaults: redis db 0, sftp port 22 and email port, encryption and auth methods', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    let panel = await openNewConnection(user, 'Redis');
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'cache');
    await user.type(within(panel).getByRole('textbox', { name: /^Address/ }), 'redis:6379');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await screen.findByText('Connection added successfully');
    expect(requests('POST', '/api/canary/connections')[0]?.body).toMatchObject({ type: 'redis', url: 'redis:6379', properties: { db: '0' } });

    panel = await openNewConnection(user, 'SFTP');
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'files');
    await user.type(within(panel).getByRole('textbox', { name: /^Host/ }), 'sftp.example.com');
    await user.type(within(panel).getByRole('textbox', { name: /^Username/ }), 'backup');
    await user.type(within(panel).getByLabelText(/^Password\*?$/), 'pw');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests('POST', '/api/canary/connections')).toHaveLength(2));
    expect(requests('POST', '/api/canary/connections')[1]?.body).toMatchObject({ type: 'sftp', url: 'sftp.example.com', properties: { port: '22' } });

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Connection' })).not.toBeInTheDocument());
    panel = await openNewConnection(user, 'Email');
    expect(within(panel).getByRole('textbox', { name: /^Port/ })).toHaveValue('587');
    expect(within(panel).getByRole('combobox', { name: /Encryption Method/ })).toHaveTextContent('Auto');
    expect(within(panel).getByRole('combobox', { name: /Auth Method/ })).toHaveTextContent('Unknown');
  });

  it("marks missing required fields with 'This field is required' and sends nothing", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    const panel = await openNewConnection(user, 'Postgres');
    await user.clear(within(panel).getByRole('textbox', { name: /^Namespace/ }));
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(panel).getAllByText('This field is required')).toHaveLength(5));
    expect(requests('POST')).toHaveLength(0);
  });

  it('edits a connection without ever holding its password, and leaves an empty password out of the update', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('orders-db'));
    const panel = await screen.findByRole('dialog', { name: 'Edit Connection' });
    expect(within(panel).getByText('Password is set — leave empty to keep it')).toBeInTheDocument();
    expect(within(panel).getByLabelText(/^Password\*?$/)).toHaveValue('');
    expect(within(panel).getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(within(panel).queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    const username = within(panel).getByRole('textbox', { name: /^Username/ });
    await user.clear(username);
    await user.type(username, 'reporting');
    await user.click(within(panel).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Connection updated successfully')).toBeInTheDocument();
    const patch = requests('PATCH')[0];
    expect(patch?.url.pathname).toBe(`/api/canary/connections/${CONNECTION_ID}`);
    expect(patch?.body).toEqual({
      name: 'orders-db',
      namespace: 'payments',
      type: 'postgres',
      url: 'postgres://db:5432/orders',
      username: 'reporting',
      insecure_tls: false,
      properties: { embedded: 'false' },
    });
  });

  it('opens a connection applied from a manifest read-only, with no Update or Delete, and still tests it as stored', async () => {
    storedSource = 'gitops:/srv/opsdeck';
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('orders-db'));
    const panel = await screen.findByRole('dialog', { name: 'Edit Connection' });
    expect(within(panel).getByRole('note')).toHaveTextContent('applied from the GitOps folder /srv/opsdeck');
    expect(within(panel).getByRole('textbox', { name: /^Username/ })).toBeDisabled();
    expect(within(panel).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByRole('dialog', { name: 'Test Connection Results' })).toBeInTheDocument();
    expect(requests('POST', `/api/canary/connection/test/${CONNECTION_ID}`)).toHaveLength(1);
  });

  it("tests a saved connection by id and shows 'Connection successful'", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('orders-db'));
    const panel = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    const results = await screen.findByRole('dialog', { name: 'Test Connection Results' });
    expect(within(results).getByText('Connection successful')).toBeInTheDocument();
    expect(requests('POST', `/api/canary/connection/test/${CONNECTION_ID}`)).toHaveLength(1);
  });

  it("tests an unsaved form with its fields and shows the server's sentence, its internal code only in folded details", async () => {
    const user = userEvent.setup({ delay: null });
    testResponse = () =>
      HttpResponse.json({ code: 'OD_CONNECTION_TEST_FAILED', message: 'connect ECONNREFUSED 127.0.0.1:1', details: null, hint: null }, { status: 400 });
    renderPage();
    const panel = await openNewConnection(user, 'HTTP');
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'closed');
    await user.type(within(panel).getByRole('textbox', { name: /^URL/ }), 'http://127.0.0.1:1');
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    const results = await screen.findByRole('dialog', { name: 'Test Connection Results' });
    expect(within(results).getByRole('alert')).toHaveTextContent('connect ECONNREFUSED 127.0.0.1:1');
    const details = within(results).getByText('Details').closest('details');
    expect(details).not.toHaveAttribute('open');
    expect(details).toHaveTextContent('"code": "OD_CONNECTION_TEST_FAILED"');
    expect(within(results).getByRole('alert')).not.toHaveTextContent('OD_CONNECTION_TEST_FAILED');
    expect(requests('POST', '/api/canary/connection/test')[0]?.body).toMatchObject({ name: 'closed', type: 'http', url: 'http://127.0.0.1:1' });
    expect(requests('POST', '/api/canary/connections')).toHaveLength(0);
  });

  it("explains a refused test in words, with the server's details about the field", async () => {
    const user = userEvent.setup({ delay: null });
    testResponse = () =>
      HttpResponse.json({ code: 'OD_VALIDATION', message: 'The request is not valid', details: '/url This field is required for postgres connections', hint: null }, { status: 400 });
    renderPage();
    await user.click(await screen.findByText('orders-db'));
    const panel = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    const results = await screen.findByRole('dialog', { name: 'Test Connection Results' });
    expect(within(results).getByRole('alert')).toHaveTextContent('The request is not valid');
    expect(within(results).getByText('/url This field is required for postgres connections')).toBeVisible();
  });

  it('says under the field that a name is longer than the server accepts, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    const panel = await openNewConnection(user, 'HTTP');
    const name = within(panel).getByRole('textbox', { name: 'Name' });
    await user.click(name);
    await user.paste('n'.repeat(256));
    await user.type(within(panel).getByRole('textbox', { name: /^URL/ }), 'http://example.test');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('Must be at most 255 characters')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    expect(requests('POST')).toHaveLength(0);

    await user.type(name, '{Backspace}');
    await waitFor(() => expect(within(panel).queryByText('Must be at most 255 characters')).not.toBeInTheDocument());
  });

  it('says which connection types cannot be tested, and that other failures failed', async () => {
    const user = userEvent.setup({ delay: null });
    testResponse = () => HttpResponse.json({ code: 'OD_CONNECTION_TEST_UNSUPPORTED', message: 'x', details: null, hint: null }, { status: 501 });
    renderPage();
    await user.click(await screen.findByText('orders-db'));
    const panel = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    let results = await screen.findByRole('dialog', { name: 'Test Connection Results' });
    expect(within(results).getByText('We currently do not support testing this connection type')).toBeInTheDocument();
    const [closeResults] = within(results).getAllByRole('button', { name: 'Close' }).slice(-1);
    // The dialog takes pointer events only once it has finished opening over the panel; a click before that is lost.
    if (closeResults) {
      await waitFor(() => expect(getComputedStyle(closeResults).pointerEvents).not.toBe('none'));
      await user.click(closeResults);
    }
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Test Connection Results' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Edit Connection' })).toBeInTheDocument();

    testResponse = () => HttpResponse.json({ code: 'OD500', message: 'Internal server error', details: null, hint: null }, { status: 500 });
    await user.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    results = await screen.findByRole('dialog', { name: 'Test Connection Results' });
    expect(within(results).getByText('Testing connection failed!')).toBeInTheDocument();
    expect(within(results).getByText('Details').closest('details')).toHaveTextContent('"message": "Internal server error"');
  });

  it('deletes a connection only after confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('orders-db'));
    const panel = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(panel).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Connection' });
    expect(requests('DELETE')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Connection deleted successfully')).toBeInTheDocument();
    expect(requests('DELETE')[0]?.url.pathname).toBe(`/api/canary/connections/${CONNECTION_ID}`);
  });
});
