import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { encodeTristate } from '@opsdeck/shared';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { RelatedConfigRow } from '../api/types';
import { RelationshipsTab } from './relationships-tab';

const ROOT = '10000000-0000-4000-8000-000000000001';
const SERVICE = '10000000-0000-4000-8000-000000000002';
const NODE = '10000000-0000-4000-8000-000000000003';

function row(id: string, name: string, overrides: Partial<RelatedConfigRow> = {}): RelatedConfigRow {
  return { id, name, type: 'Kubernetes::Service', config_class: 'Service', status: 'Active', health: 'healthy', deleted_at: null, related_ids: [ROOT], direction: 'outgoing', depth: 1, relation: 'ServicePod', ...overrides };
}

const RELATED: RelatedConfigRow[] = [
  row(SERVICE, 'checkout-svc'),
  row(NODE, 'ip-10-0-1-12', { type: 'Kubernetes::Node', health: 'warning', status: 'Ready', relation: 'PodNode' }),
  // The incoming walk of type_filter=all reaches the service again; the table shows it once.
  row(SERVICE, 'checkout-svc', { direction: 'incoming', depth: 2 }),
];

let roles: string[] = ['editor'];
let related: RelatedConfigRow[] = RELATED;
let deleteFails = false;
let rpcRequests: RecordedRequest[] = [];
let deletes: RecordedRequest[] = [];

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/rpc/related_configs_recursive', async ({ request }) => {
    rpcRequests.push(await readRequest(request));
    return HttpResponse.json(related);
  }),
  http.get('*/api/db/config_relationships', () => HttpResponse.json([{ config_id: ROOT, related_id: SERVICE }])),
  http.delete('*/api/db/config_relationships', async ({ request }) => {
    deletes.push(await readRequest(request));
    if (deleteFails) return HttpResponse.json({ code: 'P0001', message: 'Only links created by a user can be removed or changed', details: null, hint: null }, { status: 400 });
    related = related.filter((item) => item.id !== SERVICE);
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('*/api/db/configs', () => HttpResponse.json([{ id: ROOT, name: 'checkout-pod', type: 'Kubernetes::Pod', health: 'healthy', status: 'Running', deleted_at: null }])),
  http.get('*/api/db/config_types', () => HttpResponse.json([{ type: 'Kubernetes::Service', config_class: 'Service' }, { type: 'Kubernetes::Node', config_class: 'Node' }])),
  http.get('*/api/db/config_statuses', () => HttpResponse.json([{ status: 'Active' }, { status: 'Ready' }])),
);

afterEach(() => {
  roles = ['editor'];
  related = RELATED;
  deleteFails = false;
  rpcRequests = [];
  deletes = [];
});

function renderTab(query = '') {
  return renderRoutes(
    [
      { path: '/catalog/:id/relationships', element: <RelationshipsTab configId={ROOT} /> },
      { path: '/catalog/:id', element: <p>config page</p> },
    ],
    `/catalog/${ROOT}/relationships${query}`,
    { toaster: true },
  );
}

const lastArgs = () => Object.fromEntries(rpcRequests.at(-1)?.url.searchParams ?? []);

describe('Relationships tab', () => {
  it('lists each related item once with its link, relation, depth, health and status', async () => {
    renderTab('?incoming=true');
    const table = await screen.findByRole('table', { name: 'Related configs' });
    await within(table).findByText('checkout-svc');
    expect(within(table).getAllByRole('link', { name: 'checkout-svc' })).toHaveLength(1);
    expect(within(table).getByRole('link', { name: 'checkout-svc' })).toHaveAttribute('href', `/catalog/${SERVICE}`);
    const serviceRow = within(table).getByRole('link', { name: 'checkout-svc' }).closest('tr');
    expect(serviceRow).not.toBeNull();
    expect(within(serviceRow as HTMLElement).getByText('soft · both ways (ServicePod)')).toBeInTheDocument();
    const nodeRow = within(table).getByRole('link', { name: 'ip-10-0-1-12' }).closest('tr') as HTMLElement;
    expect(within(nodeRow).getByText('Kubernetes::Node')).toBeInTheDocument();
    expect(within(nodeRow).getByText('warning')).toBeInTheDocument();
    expect(within(nodeRow).getByText('Ready')).toBeInTheDocument();
  });

  it('walks outgoing hard links 10 deep by default and sends what the toggles say', async () => {
    const user = userEvent.setup();
    const { router } = renderTab();
    await screen.findByText('checkout-svc');
    expect(lastArgs()).toMatchObject({ config_id: ROOT, type_filter: 'outgoing', include_deleted_configs: 'false', max_depth: '10', incoming_relation: 'hard', outgoing_relation: 'hard' });
    expect(screen.getByRole('switch', { name: 'Outgoing' })).toBeDisabled();

    await user.click(screen.getByRole('switch', { name: 'Incoming' }));
    await waitFor(() => expect(lastArgs()).toMatchObject({ type_filter: 'all' }));
    await user.click(screen.getByRole('switch', { name: 'Outgoing' }));
    await waitFor(() => expect(lastArgs()).toMatchObject({ type_filter: 'incoming' }));
    await user.click(screen.getByRole('switch', { name: 'Soft' }));
    await waitFor(() => expect(lastArgs()).toMatchObject({ incoming_relation: 'both', outgoing_relation: 'both' }));
    await user.click(screen.getByRole('switch', { name: 'Show deleted' }));
    await waitFor(() => expect(lastArgs()).toMatchObject({ include_deleted_configs: 'true' }));
    expect(router.state.location.search).toBe('?incoming=true&outgoing=false&soft=true&showDeleted=true');

    // Turning Incoming off turns Outgoing back on.
    await user.click(screen.getByRole('switch', { name: 'Incoming' }));
    await waitFor(() => expect(lastArgs()).toMatchObject({ type_filter: 'outgoing' }));
    expect(screen.getByRole('switch', { name: 'Outgoing' })).toBeChecked();
  });

  it('sends the included types as an array and drops excluded healths from the rows', async () => {
    renderTab(`?${new URLSearchParams({ type: encodeTristate({ 'Kubernetes::Service': 1 }), health: 'warning:-1', depth: '2' }).toString()}`);
    await screen.findByText('checkout-svc');
    expect(lastArgs()).toMatchObject({ type: '{"Kubernetes::Service"}', max_depth: '2' });
    expect(screen.queryByText('ip-10-0-1-12')).not.toBeInTheDocument();
  });

  it('unlinks a manual link after the confirmation, says so and reloads the rows', async () => {
    const user = userEvent.setup();
    renderTab();
    await screen.findByText('checkout-svc');
    expect(screen.queryByRole('button', { name: 'Unlink ip-10-0-1-12' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Unlink checkout-svc' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this config link.')).toBeInTheDocument();
    const before = rpcRequests.length;
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Deleted config link successfully')).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
    expect(Object.fromEntries(deletes[0]?.url.searchParams ?? [])).toEqual({
      selector_id: 'eq.manual',
      or: `(and(config_id.eq.${ROOT},related_id.eq.${SERVICE}),and(config_id.eq.${SERVICE},related_id.eq.${ROOT}))`,
    });
    await waitFor(() => expect(screen.queryByText('checkout-svc')).not.toBeInTheDocument());
    expect(rpcRequests.length).toBeGreaterThan(before);
  });

  it('shows the server message when the unlink is refused', async () => {
    const user = userEvent.setup();
    deleteFails = true;
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Unlink checkout-svc' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Only links created by a user can be removed or changed')).toBeInTheDocument();
    expect(screen.getByText('checkout-svc')).toBeInTheDocument();
  });

  it('offers a viewer no unlink', async () => {
    roles = ['viewer'];
    renderTab();
    await screen.findByText('checkout-svc');
    expect(screen.queryByRole('button', { name: /Unlink/ })).not.toBeInTheDocument();
  });

  it('says so when nothing is related', async () => {
    related = [];
    renderTab('?view=graph');
    expect(await screen.findByText('No related configs match these filters')).toBeInTheDocument();
  });

  it('shows the server message in place of the rows when the walk is refused', async () => {
    server.use(
      http.get('*/api/db/rpc/related_configs_recursive', () =>
        HttpResponse.json({ code: '22023', message: 'max_depth must not be negative', details: null, hint: null }, { status: 400 }),
      ),
    );
    renderTab();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getAllByText('max_depth must not be negative').length).toBeGreaterThan(0);
    expect(screen.queryByRole('table', { name: 'Related configs' })).not.toBeInTheDocument();
  });

  it('collapses four items of one type under a group that opens on click', async () => {
    const user = userEvent.setup();
    related = Array.from({ length: 4 }, (_, index) => row(`20000000-0000-4000-8000-00000000000${index}`, `pod-${index}`, { type: 'Kubernetes::Pod', relation: 'child' }));
    renderTab('?view=graph');
    const group = await screen.findByRole('button', { name: /Kubernetes::Pod\s*4/, hidden: true });
    expect(group).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: /pod-0/, hidden: true })).not.toBeInTheDocument();
    await user.click(group);
    expect(await screen.findByRole('link', { name: /pod-0/, hidden: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Kubernetes::Pod\s*4/, hidden: true })).toHaveAttribute('aria-expanded', 'true');
  });

  it('draws the graph around the current item, each item linking to its own relationships', async () => {
    const user = userEvent.setup();
    const { router } = renderTab();
    await screen.findByText('checkout-svc');
    await user.click(screen.getByRole('button', { name: 'Graph' }));
    expect(router.state.location.search).toBe('?view=graph');
    const current = await screen.findByRole('link', { name: /checkout-pod/, hidden: true });
    expect(current).toHaveAttribute('aria-current', 'page');
    const service = screen.getByRole('link', { name: /checkout-svc/, hidden: true });
    expect(service).toHaveAttribute('href', `/catalog/${SERVICE}/relationships?view=graph`);
    expect(screen.getByRole('link', { name: /ip-10-0-1-12/, hidden: true })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Vertical' }));
    await user.click(screen.getByRole('button', { name: 'Step' }));
    expect(router.state.location.search).toBe('?view=graph&layout=vertical&curve=step');
  });
});
