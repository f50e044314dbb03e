import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { PlaybooksMenuProvider, type PlaybooksMenuProps } from '@/lib/playbook-run/playbook-run-slot';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { COMPONENT_ID, ROOT_ID, TOPOLOGY_ID, topologyComponent } from './panel-test-support';
import { TopologySidePanel } from './topology-side-panel';

const MANUAL_CONFIG = '40000000-0000-4000-8000-000000000001';
const SPEC_CONFIG = '40000000-0000-4000-8000-000000000002';
const TEAM_ID = '50000000-0000-4000-8000-000000000001';

let roles: string[] = ['editor'];
let recorded: RecordedRequest[] = [];
let configLinks: unknown[] = [];
let teamLinks: unknown[] = [];
let properties: Array<{ name: string; value: string }> = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

/** Every section's view answers with no rows unless a test says otherwise. */
const emptyView = (view: string) =>
  http.get(`*/api/db/${view}`, async ({ request }) => {
    await record(request);
    return HttpResponse.json([]);
  });

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json(properties)),
  http.get('*/api/db/component_names', () => HttpResponse.json([{ id: ROOT_ID, name: 'Shop', icon: null }])),
  http.get('*/api/db/config_component_relationships', async ({ request }) => {
    await record(request);
    return HttpResponse.json(configLinks);
  }),
  http.delete('*/api/db/config_component_relationships', async ({ request }) => {
    await record(request);
    configLinks = [];
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('*/api/db/team_components', async ({ request }) => {
    await record(request);
    return HttpResponse.json(teamLinks);
  }),
  http.delete('*/api/db/team_components', async ({ request }) => {
    await record(request);
    teamLinks = [];
    return new HttpResponse(null, { status: 204 });
  }),
  emptyView('incidents_by_component'),
  emptyView('changes_by_component'),
  emptyView('checks_by_component'),
  emptyView('playbook_runs'),
  emptyView('analysis_by_component'),
);

afterEach(() => {
  roles = ['editor'];
  recorded = [];
  configLinks = [];
  teamLinks = [];
  properties = [];
});

function renderPanel(onOpenChange: (open: boolean) => void = () => undefined, open = true) {
  return renderWithProviders(<TopologySidePanel component={topologyComponent()} open={open} onOpenChange={onOpenChange} />, { toaster: true });
}

const requestsTo = (view: string, method = 'GET') => recorded.filter((request) => request.method === method && request.url.pathname === `/api/db/${view}`);
const paramsOf = (request: RecordedRequest | undefined) => Object.fromEntries(request?.url.searchParams ?? []);

async function openSection(title: string) {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('button', { name: title }));
  return user;
}

describe('Topology side panel', () => {
  it('opens on Details with the component facts, its path and the link to its topology settings', async () => {
    renderPanel();
    expect(screen.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Takes the payments')).toBeInTheDocument();
    expect(screen.getByText('1 check failing')).toBeInTheDocument();
    expect(screen.getByText('tier=back')).toBeInTheDocument();
    expect(screen.getByText('shop/checkout')).toBeInTheDocument();
    expect(screen.getByText('$4.20')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Shop' })).toHaveAttribute('href', `/topology/${ROOT_ID}`);
    expect(await screen.findByRole('link', { name: 'Topology settings' })).toHaveAttribute('href', `/settings/topologies/${TOPOLOGY_ID}`);
    // No section but Details asked for anything.
    expect(recorded).toHaveLength(0);
  });

  it('leaves out the Incidents section while incidents.disable switches the incidents area off', async () => {
    properties = [{ name: 'incidents.disable', value: 'true' }];
    renderPanel();
    expect(await screen.findByRole('button', { name: 'Details' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Incidents' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Changes' })).toBeInTheDocument();
    expect(requestsTo('incidents_by_component')).toHaveLength(0);
  });

  it('keeps one section open at a time and loads a section only when it is opened', async () => {
    renderPanel();
    await openSection('Incidents');
    expect(screen.getByRole('button', { name: 'Incidents' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'false');
    expect(await screen.findByText('No incidents')).toBeInTheDocument();
    await openSection('Checks');
    expect(screen.getByRole('button', { name: 'Incidents' })).toHaveAttribute('aria-expanded', 'false');
    expect(await screen.findByText('No checks linked')).toBeInTheDocument();
    expect(screen.queryByText('No incidents')).toBeNull();
    expect(requestsTo('changes_by_component')).toHaveLength(0);
    expect(requestsTo('playbook_runs')).toHaveLength(0);
  });

  it.each([
    ['Configs', 'config_component_relationships', 'No configs linked', { component_id: `eq.${COMPONENT_ID}`, deleted_at: 'is.null', select: 'config_id,selector_id,config:config_id(id,name,type,health,status)' }],
    ['Incidents', 'incidents_by_component', 'No incidents', { component_id: `eq.${COMPONENT_ID}`, order: 'created_at.desc', limit: '50' }],
    ['Changes', 'changes_by_component', 'No changes', { component_id: `eq.${COMPONENT_ID}`, order: 'created_at.desc', limit: '50' }],
    ['Checks', 'checks_by_component', 'No checks linked', { component_id: `eq.${COMPONENT_ID}` }],
    ['Playbooks', 'playbook_runs', 'No playbook runs', { component_id: `eq.${COMPONENT_ID}`, order: 'created_at.desc', limit: '50' }],
    ['Teams', 'team_components', 'No teams', { component_id: `eq.${COMPONENT_ID}`, select: 'team_id,role,selector_id,team:team_id(id,name,icon)' }],
    ['Insights', 'analysis_by_component', 'No open insights', { component_id: `eq.${COMPONENT_ID}`, status: 'eq.open', limit: '50' }],
  ])('asks %s from %s and says so when it has none', async (title, view, emptyText, params) => {
    renderPanel();
    await openSection(title);
    expect(await screen.findByText(emptyText)).toBeInTheDocument();
    expect(paramsOf(requestsTo(view)[0])).toMatchObject(params);
  });

  it("offers the component's playbooks behind a Run button and links each run to its page", async () => {
    const RUN_ID = '70000000-0000-4000-8000-000000000001';
    server.use(
      http.get('*/api/db/playbook_runs', () =>
        HttpResponse.json([
          { id: RUN_ID, status: 'completed', created_at: '2024-01-06T10:00:00Z', start_time: null, end_time: null, playbook: { id: 'p1', name: 'restart', title: 'Restart service' } },
        ]),
      ),
    );
    const menus: PlaybooksMenuProps[] = [];
    function Menu(props: PlaybooksMenuProps) {
      menus.push(props);
      return <button type="button">Run</button>;
    }
    renderWithProviders(
      <PlaybooksMenuProvider component={Menu}>
        <TopologySidePanel component={topologyComponent()} open onOpenChange={() => undefined} />
      </PlaybooksMenuProvider>,
    );
    await openSection('Playbooks');
    expect(await screen.findByRole('link', { name: 'Restart service' })).toHaveAttribute('href', `/playbooks/runs/${RUN_ID}`);
    expect(screen.getByRole('button', { name: 'Run' })).toBeInTheDocument();
    expect(menus.at(-1)).toEqual({ variant: 'button', target: { type: 'component', id: COMPONENT_ID } });
  });

  it('shows the server message in place of a section that failed to load', async () => {
    renderPanel();
    server.use(http.get('*/api/db/checks_by_component', () => HttpResponse.json({ code: '42501', message: 'permission denied', details: null, hint: null }, { status: 403 })));
    await openSection('Checks');
    expect(await screen.findByRole('alert')).toHaveTextContent('permission denied');
  });

  it('lists linked configs with links to the catalog, and removes a manual link only after confirmation', async () => {
    configLinks = [
      { config_id: MANUAL_CONFIG, selector_id: 'manual', config: { id: MANUAL_CONFIG, name: 'payments-db', type: 'AWS::RDS', health: 'healthy', status: 'available' } },
      { config_id: SPEC_CONFIG, selector_id: 'spec', config: { id: SPEC_CONFIG, name: 'checkout-pod', type: 'Kubernetes::Pod', health: 'unhealthy', status: 'Running' } },
    ];
    renderPanel();
    const user = await openSection('Configs');
    expect(await screen.findByRole('link', { name: 'payments-db' })).toHaveAttribute('href', `/catalog/${MANUAL_CONFIG}`);
    expect(screen.getByRole('link', { name: 'checkout-pod' })).toHaveAttribute('href', `/catalog/${SPEC_CONFIG}`);
    // A link the topology spec made is rebuilt by it, so only the hand-made one offers Unlink.
    expect(screen.queryByRole('button', { name: 'Unlink checkout-pod' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Unlink payments-db' }));
    const confirm = await screen.findByRole('dialog', { name: 'Unlink config' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete this config link.');
    expect(requestsTo('config_component_relationships', 'DELETE')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Deleted config link successfully')).toBeInTheDocument();
    expect(paramsOf(requestsTo('config_component_relationships', 'DELETE')[0])).toEqual({
      component_id: `eq.${COMPONENT_ID}`,
      config_id: `eq.${MANUAL_CONFIG}`,
      selector_id: 'eq.manual',
    });
    expect(await screen.findByText('No configs linked')).toBeInTheDocument();
  });

  it('lists the teams with links to their settings, and removes a manual team link after confirmation', async () => {
    teamLinks = [{ team_id: TEAM_ID, role: 'owner', selector_id: 'manual', team: { id: TEAM_ID, name: 'Payments', icon: null } }];
    renderPanel();
    const user = await openSection('Teams');
    expect(await screen.findByRole('link', { name: 'Payments' })).toHaveAttribute('href', `/settings/teams/${TEAM_ID}`);
    await user.click(screen.getByRole('button', { name: 'Unlink Payments' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Unlink team' })).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(requestsTo('team_components', 'DELETE')).toHaveLength(1));
    expect(paramsOf(requestsTo('team_components', 'DELETE')[0])).toEqual({ component_id: `eq.${COMPONENT_ID}`, team_id: `eq.${TEAM_ID}`, selector_id: 'eq.manual' });
  });

  it('offers a viewer neither Link nor Unlink', async () => {
    roles = ['viewer'];
    configLinks = [{ config_id: MANUAL_CONFIG, selector_id: 'manual', config: { id: MANUAL_CONFIG, name: 'payments-db', type: 'AWS::RDS', health: 'healthy', status: null } }];
    teamLinks = [{ team_id: TEAM_ID, role: null, selector_id: 'manual', team: { id: TEAM_ID, name: 'Payments', icon: null } }];
    renderPanel();
    await openSection('Configs');
    expect(await screen.findByRole('link', { name: 'payments-db' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link to config' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Unlink payments-db' })).toBeNull();
    await openSection('Teams');
    expect(await screen.findByRole('link', { name: 'Payments' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link to team' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Unlink Payments' })).toBeNull();
  });

  it('offers an editor Link to config and Link to team', async () => {
    renderPanel();
    await openSection('Configs');
    expect(await screen.findByRole('button', { name: 'Link to config' })).toBeInTheDocument();
    await openSection('Teams');
    expect(await screen.findByRole('button', { name: 'Link to team' })).toBeInTheDocument();
  });

  it('collapses to a rail and opens again through onOpenChange', async () => {
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    const { rerender } = renderPanel(onOpenChange);
    await user.click(screen.getByRole('button', { name: 'Hide side panel' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    rerender(<TopologySidePanel component={topologyComponent()} open={false} onOpenChange={onOpenChange} />);
    expect(screen.queryByRole('button', { name: 'Details' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show side panel' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(true);
  });
});
