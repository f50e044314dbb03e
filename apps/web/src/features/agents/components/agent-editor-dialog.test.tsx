import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { AgentDetail } from '@opsdeck/shared';
import { RolesAndFlagsLoaded, waitForRolesAndFlags } from '@/test/access-loaded';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { AgentEditorFromSearchParams } from './agent-editor-from-search-params';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const AGENT_ID = '22222222-2222-4222-8222-222222222222';
const TOKEN = 'opsdeck_agent_s3cr3t-token-value';

const stored: AgentDetail = {
  id: AGENT_ID,
  name: 'edge-cluster',
  description: 'Edge sites',
  hostname: null,
  version: null,
  properties: { region: 'eu-west' },
  kubernetes: { enabled: true, interval: '1h' },
  pushTelemetry: { enabled: false, topologyName: null },
  last_seen: null,
  last_received: null,
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

interface Recorded {
  method: string;
  body: unknown;
}

let roles = ['admin'];
let disabledProperties: { name: string; value: string }[] = [];
let recorded: Recorded[] = [];
let createResponse: () => Response = () => HttpResponse.json({ id: AGENT_ID, name: 'new-agent', access_token: TOKEN }, { status: 201 });
let updateGate: Promise<void> = Promise.resolve();

async function record(request: Request): Promise<void> {
  const text = await request.text();
  recorded.push({ method: request.method, body: text === '' ? null : (JSON.parse(text) as JsonBodyType) });
}

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json(disabledProperties)),
  http.post('*/api/agents', async ({ request }) => {
    await record(request);
    return createResponse();
  }),
  http.get('*/api/agents/:id', ({ params }) =>
    params.id === AGENT_ID ? HttpResponse.json(stored) : HttpResponse.json({ code: 'OD404', message: 'Agent not found', details: null, hint: null }, { status: 404 }),
  ),
  http.patch('*/api/agents/:id', async ({ request }) => {
    const body = (await request.clone().json()) as Partial<AgentDetail>;
    await record(request);
    await updateGate;
    return HttpResponse.json({ ...stored, ...body });
  }),
);

afterEach(() => {
  roles = ['admin'];
  disabledProperties = [];
  recorded = [];
  createResponse = () => HttpResponse.json({ id: AGENT_ID, name: 'new-agent', access_token: TOKEN }, { status: 201 });
  updateGate = Promise.resolve();
});

function CurrentSearch() {
  return <output aria-label="Current search">{useLocation().search}</output>;
}

function renderAt(path: string) {
  renderRoutes(
    [
      {
        path: '/health',
        element: (
          <>
            <CurrentSearch />
            <RolesAndFlagsLoaded />
            <AgentEditorFromSearchParams />
          </>
        ),
      },
    ],
    path,
    { toaster: true },
  );
}

const currentSearch = () => screen.getByRole('status', { name: 'Current search' });
const writes = (method: string) => recorded.filter((request) => request.method === method);

describe('Agent editor', () => {
  it('creates an agent with Next, then shows the installation instructions with the token in both tabs, and asks before Escape would lose the token', async () => {
    const user = userEvent.setup();
    renderAt('/health?addAgent=true&layout=card');
    const dialog = await screen.findByRole('dialog', { name: 'Add Agent' });
    await user.type(within(dialog).getByLabelText(/^Name/), '  new-agent ');
    await user.type(within(dialog).getByLabelText('Description'), 'Runs at the edge');
    await user.click(within(dialog).getByRole('button', { name: 'Add property' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Property 1 name' }), 'region');
    await user.type(within(dialog).getByRole('textbox', { name: 'Property 1 value' }), 'eu-west');
    expect(within(dialog).getByRole('combobox', { name: 'Scrape interval' })).toHaveTextContent('30m');
    await user.click(within(dialog).getByRole('switch', { name: 'Scrape this cluster' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));

    const instructions = await screen.findByRole('dialog', { name: 'Installation Instructions' });
    expect(await screen.findByText('Agent created')).toBeInTheDocument();
    expect(writes('POST')[0]?.body).toEqual({
      name: 'new-agent',
      description: 'Runs at the edge',
      properties: { region: 'eu-west' },
      kubernetes: { enabled: true, interval: '30m' },
      pushTelemetry: { enabled: false, topologyName: null },
    });
    expect(within(instructions).getByRole('note')).toHaveTextContent('shown only once');
    const flux = within(instructions).getByRole('tabpanel', { name: 'Flux' });
    expect(flux).toHaveTextContent(TOKEN);
    expect(flux).toHaveTextContent('agentName: "new-agent"');
    expect(flux).toHaveTextContent(`host: "${window.location.origin}"`);
    expect(within(flux).getByRole('button', { name: 'Copy Flux manifest' })).toBeInTheDocument();

    await user.click(within(instructions).getByRole('tab', { name: 'Helm CLI' }));
    const helm = within(instructions).getByRole('tabpanel', { name: 'Helm CLI' });
    expect(helm).toHaveTextContent('helm install');
    expect(helm).toHaveTextContent(TOKEN);
    expect(helm).toHaveTextContent("upstream.agentName='new-agent'");

    await user.keyboard('{Escape}');
    const confirm = await screen.findByRole('dialog', { name: 'Close the installation instructions?' });
    expect(confirm).toHaveTextContent('will not be shown again');
    await user.click(within(confirm).getByRole('button', { name: 'Keep open' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Close the installation instructions?' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Installation Instructions' })).toHaveTextContent(TOKEN);

    await user.click(within(instructions).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentSearch()).toHaveTextContent('?layout=card');
  });

  it("requires a name with 'This field is required' and sends nothing", async () => {
    const user = userEvent.setup();
    renderAt('/health?addAgent=true');
    const dialog = await screen.findByRole('dialog', { name: 'Add Agent' });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(writes('POST')).toHaveLength(0);
  });

  it("says under the fields that a name over 255 and a description over 4096 characters are too long, and sends nothing", async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/health?addAgent=true');
    const dialog = await screen.findByRole('dialog', { name: 'Add Agent' });
    await user.click(within(dialog).getByLabelText(/^Name/));
    await user.paste('a'.repeat(256));
    await user.click(within(dialog).getByLabelText('Description'));
    await user.paste('d'.repeat(4097));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText('Must be at most 255 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Must be at most 4,096 characters')).toBeInTheDocument();
    expect(writes('POST')).toHaveLength(0);
  });

  it('shows the server message as a toast and keeps everything typed', async () => {
    createResponse = () =>
      HttpResponse.json({ code: 'OD_NAME_TAKEN', message: "An agent named 'taken' already exists", details: null, hint: null }, { status: 409 });
    const user = userEvent.setup();
    renderAt('/health?addAgent=true');
    const dialog = await screen.findByRole('dialog', { name: 'Add Agent' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'taken');
    await user.type(within(dialog).getByLabelText('Description'), 'kept');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText("An agent named 'taken' already exists")).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add Agent' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('taken');
    expect(within(dialog).getByLabelText('Description')).toHaveValue('kept');
  });

  it("loads the agent by id with a read-only name and saves with Save, showing 'Saving ...' meanwhile", async () => {
    let release: () => void = () => undefined;
    updateGate = new Promise((resolve) => {
      release = resolve;
    });
    const user = userEvent.setup();
    renderAt(`/health?id=${AGENT_ID}&layout=table`);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Agent' });
    const name = await within(dialog).findByLabelText(/^Name/);
    expect(name).toHaveValue('edge-cluster');
    expect(name).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('textbox', { name: 'Property 1 value' })).toHaveValue('eu-west');
    expect(within(dialog).getByRole('combobox', { name: 'Scrape interval' })).toHaveTextContent('1h');
    expect(within(dialog).queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();

    const description = within(dialog).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Edge and branch sites');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving ...' })).toBeDisabled();
    release();

    expect(await screen.findByText('Agent updated')).toBeInTheDocument();
    expect(writes('PATCH')[0]?.body).toEqual({
      description: 'Edge and branch sites',
      properties: { region: 'eu-west' },
      kubernetes: { enabled: true, interval: '1h' },
      pushTelemetry: { enabled: false, topologyName: null },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentSearch()).toHaveTextContent('?layout=table');
  });

  it('shows a failed load in the dialog', async () => {
    renderAt('/health?id=33333333-3333-4333-8333-333333333333');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Agent' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Agent not found');
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('opens nothing for addAgent when the user may not write agents', async () => {
    roles = ['viewer'];
    renderAt('/health?addAgent=true');
    await waitForRolesAndFlags();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(currentSearch()).toHaveTextContent('?addAgent=true');
  });

  it('opens nothing for addAgent or id while the agents feature is switched off', async () => {
    disabledProperties = [{ name: 'agents.disable', value: 'true' }];
    renderAt(`/health?addAgent=true&id=${AGENT_ID}`);
    await waitForRolesAndFlags();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(recorded).toEqual([]);
  });

  it('shows an agent read-only, without Save, to users who may only read agents', async () => {
    roles = ['viewer'];
    renderAt(`/health?id=${AGENT_ID}`);
    const dialog = await screen.findByRole('dialog', { name: 'edge-cluster' });
    expect(await within(dialog).findByLabelText('Description')).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Add property' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
