import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import type { AgentDetail } from '@opsdeck/shared';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { AgentListRow } from '../api/get-agents';
import { AgentsPage } from './agents-page';

const EU = '22222222-2222-4222-8222-222222222222';
const LAB = '33333333-3333-4333-8333-333333333333';
const NEW_TOKEN = 'opsdeck_agent_rotated-token-value';

function row(id: string, name: string, lastSeen: string | null, counts: [number, number, number, number]): AgentListRow {
  const [configs, checks, scrapers, runs] = counts;
  return {
    id,
    name,
    description: null,
    hostname: null,
    version: null,
    last_seen: lastSeen,
    last_received: lastSeen,
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-06T10:00:00Z',
    config_count: configs,
    checks_count: checks,
    config_scrapper_count: scrapers,
    playbook_runs_count: runs,
    creator: { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Admin' },
  };
}

const detail: AgentDetail = {
  id: EU,
  name: 'edge-eu-west',
  description: null,
  hostname: null,
  version: null,
  properties: {},
  kubernetes: { enabled: false, interval: '30m' },
  pushTelemetry: { enabled: false, topologyName: null },
  last_seen: null,
  last_received: null,
  created_by: null,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

let roles = ['admin'];
let listRequests: URL[] = [];
let deletes: string[] = [];
let rotations: string[] = [];
let deleteFails = false;
let listFails = false;
let listEmpty = false;

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
  http.get('*/api/db/agents_summary', ({ request }) => {
    const url = new URL(request.url);
    listRequests.push(url);
    if (listFails) return HttpResponse.json({ code: 'OD500', message: 'Internal server error', details: null, hint: null }, { status: 500 });
    if (listEmpty) return HttpResponse.json([], { headers: { 'Content-Range': '*/0' } });
    const rows = [row(EU, 'edge-eu-west', new Date(Date.now() - 5_000).toISOString(), [4, 3, 1, 0]), row(LAB, 'lab-agent', null, [0, 0, 0, 0])];
    return HttpResponse.json(rows, { headers: { 'Content-Range': `0-1/${String(rows.length)}` } });
  }),
  http.get('*/api/agents/:id', () => HttpResponse.json(detail)),
  http.delete('*/api/agents/:id', ({ request, params }) => {
    deletes.push(`${String(params.id)}${new URL(request.url).search}`);
    if (deleteFails) return HttpResponse.json({ code: 'OD500', message: 'The database is read-only', details: null, hint: null }, { status: 503 });
    const cleanup = new URL(request.url).searchParams.get('cleanup') === 'true';
    return HttpResponse.json({ id: params.id, cleanup, deleted: { checks: 0, canaries: 0, config_items: 0, config_scrapers: 0 } });
  }),
  http.post('*/api/agents/:id/token', ({ params }) => {
    rotations.push(String(params.id));
    return HttpResponse.json({ id: EU, name: 'edge-eu-west', access_token: NEW_TOKEN });
  }),
);

afterEach(() => {
  roles = ['admin'];
  listRequests = [];
  deletes = [];
  rotations = [];
  deleteFails = false;
  listFails = false;
  listEmpty = false;
});

function CurrentSearch() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function renderAt(path: string) {
  renderRoutes(
    [
      {
        path: '/settings/agents',
        element: (
          <>
            <CurrentSearch />
            <AgentsPage />
          </>
        ),
      },
    ],
    path,
    { toaster: true },
  );
}

// By test id: an open dialog hides the rest of the page from the accessibility tree.
const currentSearch = () => screen.getByTestId('location');
const lastList = () => listRequests[listRequests.length - 1];

describe('Agents page', () => {
  it('lists the agents with counts, status, creator and an exact count, sorted by name in pages of 50', async () => {
    renderAt('/settings/agents');
    expect(await screen.findByRole('heading', { name: 'Agents' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Agents' });
    const eu = await within(table).findByRole('row', { name: /edge-eu-west/ });
    expect(eu).toHaveTextContent('Online');
    expect(eu).toHaveTextContent('Ada Admin');
    expect(within(table).getByRole('row', { name: /lab-agent/ })).toHaveTextContent('Offline');
    const request = lastList();
    expect(request?.searchParams.get('order')).toBe('name.asc.nullslast,id.asc');
    expect(request?.searchParams.get('limit')).toBe('50');
    expect(request?.searchParams.get('select')).toContain('creator:people!agents_created_by_fkey(id,name)');
    expect(screen.getByRole('button', { name: 'Add Agent' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Pagination' })).getAllByRole('option').map((option) => option.textContent)).toEqual(['50', '100', '200']);
  });

  it('keeps sorting and page size in the URL and asks the server for them', async () => {
    const user = userEvent.setup();
    renderAt('/settings/agents?sortBy=checks&sortOrder=desc&pageSize=100&page=2');
    await screen.findByRole('row', { name: /edge-eu-west/ });
    expect(lastList()?.searchParams.get('order')).toBe('checks_count.desc.nullslast,id.asc');
    expect(lastList()?.searchParams.get('offset')).toBe('100');

    await user.selectOptions(within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('combobox'), '200');
    await waitFor(() => expect(currentSearch().textContent).toContain('pageSize=200'));
    expect(currentSearch().textContent).not.toContain('page=2');
    await waitFor(() => expect(lastList()?.searchParams.get('limit')).toBe('200'));

    expect(screen.getByRole('columnheader', { name: /Checks/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(screen.getByRole('columnheader', { name: /Configs/ })).getByRole('button'));
    await waitFor(() => expect(currentSearch().textContent).toContain('sortBy=configs'));
    await waitFor(() => expect(lastList()?.searchParams.get('order')).toMatch(/^config_count\.(asc|desc)\.nullslast,id\.asc$/));
  });

  it('opens the editor from a row through ?id=', async () => {
    const user = userEvent.setup();
    renderAt('/settings/agents');
    await user.click(await screen.findByRole('row', { name: /edge-eu-west/ }));
    await waitFor(() => expect(currentSearch().textContent).toContain(`id=${EU}`));
    expect(await screen.findByRole('dialog', { name: 'Edit Agent' })).toBeInTheDocument();
  });

  it('deletes from the row after asking about cleanup and then to confirm, and toasts Agent deleted', async () => {
    const user = userEvent.setup();
    renderAt('/settings/agents');
    await user.click(await screen.findByRole('button', { name: 'Delete edge-eu-west' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete edge-eu-west' });
    expect(ask).toHaveTextContent('Also delete resources the agent created?');
    expect(currentSearch().textContent).not.toContain('id=');
    await user.click(within(ask).getByRole('button', { name: 'Yes' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete agent?' });
    expect(deletes).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Agent deleted')).toBeInTheDocument();
    expect(deletes).toEqual([`${EU}?cleanup=true`]);
  });

  it('deletes without cleanup on No, and toasts the server message when deletion fails', async () => {
    deleteFails = true;
    const user = userEvent.setup();
    renderAt('/settings/agents');
    await user.click(await screen.findByRole('button', { name: 'Delete lab-agent' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete lab-agent' })).getByRole('button', { name: 'No' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete agent?' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The database is read-only')).toBeInTheDocument();
    expect(deletes).toEqual([`${LAB}?cleanup=false`]);
  });

  it('rotates the token from the editor after a confirmation and shows the new token once with the instructions', async () => {
    const user = userEvent.setup();
    renderAt(`/settings/agents?id=${EU}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Agent' });
    await waitFor(() => expect(within(editor).getByRole('button', { name: 'Rotate token' })).toBeEnabled());
    await user.click(within(editor).getByRole('button', { name: 'Rotate token' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the access token?' });
    expect(rotations).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Rotate token' }));
    const shown = await screen.findByRole('dialog', { name: 'New Access Token' });
    expect(rotations).toEqual([EU]);
    expect(within(shown).getByRole('tabpanel', { name: 'Flux' })).toHaveTextContent(NEW_TOKEN);
    expect(within(shown).getByRole('button', { name: 'Copy Flux manifest' })).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(NEW_TOKEN)).not.toBeInTheDocument());
  });

  it('offers a viewer neither add, delete nor token rotation', async () => {
    roles = ['viewer'];
    renderAt(`/settings/agents?id=${EU}`);
    await screen.findByRole('row', { name: /edge-eu-west/, hidden: true });
    const editor = await screen.findByRole('dialog', { name: 'edge-eu-west' });
    expect(within(editor).queryByRole('button', { name: 'Rotate token' })).not.toBeInTheDocument();
    expect(within(editor).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Agent' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();
  });

  it('shows the failure with a retry when the list cannot be read', async () => {
    listFails = true;
    renderAt('/settings/agents');
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Agents' })).not.toBeInTheDocument();
  });

  it('says so when there are no agents', async () => {
    listEmpty = true;
    renderAt('/settings/agents');
    expect(await screen.findByText('No agents')).toBeInTheDocument();
  });
});
