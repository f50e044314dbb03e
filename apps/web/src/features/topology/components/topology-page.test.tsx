import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type { TopologyComponent, TopologyComponentRow, TopologyResponse } from '../api/types';
import { makeComponent, makeResponse, makeRow } from '../topology-test-support';
import { CARD_SIZE_KEY } from '../utils/use-card-preferences';
import { TopologyPage } from './topology-page';

const ROOT = 'a0000000-0000-4000-8000-000000000001';
const PARENT = 'a0000000-0000-4000-8000-000000000002';
const CHILD = 'a0000000-0000-4000-8000-000000000003';

let roles: string[] = ['viewer'];
let topologyRequests: URL[] = [];
let namesRequests: URL[] = [];
let topologyResponse: () => Response = () => HttpResponse.json(makeResponse([]));

setupMswServer(
  whoamiHandler(() => roles),
  // The cards read the feature flags (a switched-off logs area hides their Logs link); none are set here.
  http.get('*/api/db/properties', () => HttpResponse.json([])),
  http.get('*/api/topology', ({ request }) => {
    topologyRequests.push(new URL(request.url));
    return topologyResponse();
  }),
  http.get('*/api/db/component_names', ({ request }) => {
    namesRequests.push(new URL(request.url));
    return HttpResponse.json([
      { id: ROOT, name: 'Production', icon: 'kubernetes' },
      { id: PARENT, name: 'Payments', icon: null },
    ]);
  }),
);

afterEach(() => {
  roles = ['viewer'];
  topologyRequests = [];
  namesRequests = [];
  topologyResponse = () => HttpResponse.json(makeResponse([]));
});

const respond = (response: TopologyResponse) => {
  topologyResponse = () => HttpResponse.json(response);
};

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderTopology(url = '/topology') {
  const page = (
    <>
      <TopologyPage />
      <LocationProbe />
    </>
  );
  return renderWithProviders(
    <Routes>
      <Route path="/topology" element={page} />
      <Route path="/topology/:id" element={page} />
    </Routes>,
    { path: url },
  );
}

const currentUrl = () => new URL(screen.getByTestId('location').textContent ?? '', 'http://localhost');
const lastTopologyRequest = (): URL => {
  const url = topologyRequests.at(-1);
  if (url === undefined) throw new Error('GET /api/topology was not called');
  return url;
};
const cardNames = () => within(screen.getByRole('list', { name: 'Components' })).getAllByRole('article').map((card) => card.getAttribute('aria-label'));

async function choose(user: ReturnType<typeof userEvent.setup>, menu: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: menu }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** The component /topology/{PARENT} shows, with the given children. */
function parentWith(children: Array<TopologyComponent | TopologyComponentRow>): TopologyComponent {
  return makeComponent({ id: PARENT, name: 'Payments', parent_id: ROOT, path: ROOT, components: children });
}

describe('Topology page', () => {
  it('shows the root of every topology as a card', async () => {
    respond(makeResponse([makeComponent({ id: ROOT, name: 'Production' }), makeComponent({ id: PARENT, name: 'Staging' })]));
    renderTopology();
    expect(await screen.findByRole('article', { name: 'Production' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Staging' })).toBeInTheDocument();
    expect(lastTopologyRequest().search).toBe('');
    expect(document.title).toBe('Topology | Opsdeck');
  });

  it('keeps the filters but drops status and refererId on a card link, naming the current component as referer', async () => {
    respond(makeResponse([parentWith([makeComponent({ id: CHILD, name: 'api', parent_id: PARENT })])]));
    renderTopology(`/topology/${PARENT}?type=Service&status=healthy&refererId=${ROOT}&team=ops`);
    const link = await screen.findByRole('link', { name: 'api' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(href.pathname).toBe(`/topology/${CHILD}`);
    expect(Object.fromEntries(href.searchParams)).toEqual({ type: 'Service', team: 'ops', refererId: PARENT });
    expect(Object.fromEntries(lastTopologyRequest().searchParams)).toEqual({ id: PARENT, type: 'Service', status: 'healthy', team: 'ops' });
  });

  it('writes a chosen filter to the URL and sends it to the API, and leaves All out of both', async () => {
    const user = userEvent.setup();
    respond(makeResponse([makeComponent({ id: ROOT, name: 'Production', type: 'Kubernetes' })], { types: ['Kubernetes', 'Database'], teams: ['ops'] }));
    renderTopology();
    await screen.findByRole('article', { name: 'Production' });
    await choose(user, 'Type', 'Kubernetes');
    await waitFor(() => expect(currentUrl().searchParams.get('type')).toBe('Kubernetes'));
    await waitFor(() => expect(lastTopologyRequest().searchParams.get('type')).toBe('Kubernetes'));
    await choose(user, 'Team', 'ops');
    await waitFor(() => expect(lastTopologyRequest().searchParams.get('team')).toBe('ops'));
    await choose(user, 'Type', 'All');
    await waitFor(() => expect(currentUrl().searchParams.has('type')).toBe(false));
    await waitFor(() => expect(Object.fromEntries(lastTopologyRequest().searchParams)).toEqual({ team: 'ops' }));
  });

  it("counts a root's child rows by health, and lists them worst first in the detailed view, linking each with the root as referer", async () => {
    const user = userEvent.setup();
    const rows = [
      makeRow({ id: CHILD, name: 'api', parent_id: ROOT, path: ROOT, status: 'healthy' }),
      makeRow({ id: 'db', name: 'db', parent_id: ROOT, path: ROOT, status: 'unhealthy', status_reason: 'disk full' }),
      makeRow({ id: 'web', name: 'web', parent_id: ROOT, path: ROOT, status: 'healthy' }),
    ];
    respond(makeResponse([makeComponent({ id: ROOT, name: 'Production', components: rows })]));
    renderTopology();
    const card = await screen.findByRole('article', { name: 'Production' });
    expect(within(card).getByLabelText('Children by health')).toHaveTextContent('2 healthy1 unhealthy');
    await choose(user, 'View', 'Detailed');
    const list = await within(card).findByRole('list', { name: 'Children of Production' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['db', 'api', 'web']);
    expect(within(list).getByText('disk full')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'api' })).toHaveAttribute('href', `/topology/${CHILD}?refererId=${ROOT}`);
  });

  it('draws only whole components as cards under the component asked for, leaving out a row sent in their place', async () => {
    respond(
      makeResponse([
        parentWith([
          makeComponent({ id: CHILD, name: 'api', parent_id: PARENT, components: [makeRow({ id: 'pod', name: 'pod-a', parent_id: CHILD })] }),
          makeRow({ id: 'stray', name: 'stray-row', parent_id: PARENT }),
        ]),
      ]),
    );
    renderTopology(`/topology/${PARENT}`);
    await screen.findByRole('article', { name: 'api' });
    expect(cardNames()).toEqual(['api']);
    expect(screen.queryByText('stray-row')).not.toBeInTheDocument();
  });

  it('orders the cards unhealthy, warning, then healthy by default and reverses on the order toggle', async () => {
    const user = userEvent.setup();
    respond(
      makeResponse([
        makeComponent({ id: 'h', name: 'healthy-one', status: 'healthy' }),
        makeComponent({ id: 'u', name: 'unhealthy-one', status: 'unhealthy' }),
        makeComponent({ id: 'w', name: 'warning-one', status: 'warning' }),
      ]),
    );
    renderTopology();
    await screen.findByRole('article', { name: 'healthy-one' });
    expect(cardNames()).toEqual(['unhealthy-one', 'warning-one', 'healthy-one']);
    await user.click(screen.getByRole('button', { name: 'Sort descending' }));
    await waitFor(() => expect(cardNames()).toEqual(['healthy-one', 'warning-one', 'unhealthy-one']));
    expect(currentUrl().searchParams.get('sortOrder')).toBe('asc');
  });

  it('draws a red top border on unhealthy cards and an orange one on warning cards', async () => {
    respond(makeResponse([makeComponent({ id: 'u', name: 'broken', status: 'unhealthy' }), makeComponent({ id: 'w', name: 'shaky', status: 'warning' })]));
    renderTopology();
    const broken = await screen.findByRole('article', { name: 'broken' });
    expect(broken).toHaveAttribute('data-status', 'unhealthy');
    expect(broken).toHaveClass('border-t-red-500');
    expect(screen.getByRole('article', { name: 'shaky' })).toHaveClass('border-t-orange-400');
  });

  it('hides hidden components when showHiddenComponents is no', async () => {
    respond(makeResponse([makeComponent({ id: 'v', name: 'visible' }), makeComponent({ id: 'h', name: 'secret', hidden: true })]));
    renderTopology('/topology?showHiddenComponents=no');
    await screen.findByRole('article', { name: 'visible' });
    expect(screen.queryByRole('article', { name: 'secret' })).not.toBeInTheDocument();
  });

  it("shows 'show more' after 6 properties and after 5 summary rows", async () => {
    const user = userEvent.setup();
    localStorage.setItem(CARD_SIZE_KEY, 'large');
    const properties = Array.from({ length: 7 }, (_, index) => ({ name: `prop-${index}`, text: `value-${index}` }));
    const incidents = Object.fromEntries(Array.from({ length: 6 }, (_, index) => [`type${index}`, { high: 1 }]));
    respond(
      makeResponse([
        makeComponent({
          id: ROOT,
          name: 'Production',
          properties,
          summary: { checks: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 }, incidents, insights: {} },
        }),
      ]),
    );
    renderTopology();
    const card = await screen.findByRole('article', { name: 'Production' });
    expect(within(within(card).getByRole('list', { name: 'Properties' })).getAllByRole('listitem')).toHaveLength(6);
    expect(within(within(card).getByRole('list', { name: 'Summary' })).getAllByRole('listitem')).toHaveLength(5);
    const buttons = within(card).getAllByRole('button', { name: 'Show more (1)' });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[0] as HTMLElement);
    expect(within(within(card).getByRole('list', { name: 'Properties' })).getAllByRole('listitem')).toHaveLength(7);
    expect(within(card).getByRole('link', { name: 'type0 incidents' })).toHaveAttribute('href', `/incidents?type=type0&component=${ROOT}`);
    expect(within(card).getAllByRole('link', { name: '1 high' })[0]).toHaveAttribute('href', `/incidents?severity=high&component=${ROOT}&type=type0`);
  });

  it('links check counts to the health page by status, the type to the topology filter and teams to their page', async () => {
    respond(
      makeResponse([
        makeComponent({
          id: ROOT,
          name: 'Production',
          type: 'Cluster',
          logs: true,
          teams: [{ id: 'team-1', name: 'Ops', icon: null }],
          summary: { checks: { healthy: 2, unhealthy: 1, warning: 0, unknown: 0 }, incidents: {}, insights: { security: { critical: 3 } } },
        }),
      ]),
    );
    renderTopology();
    const card = await screen.findByRole('article', { name: 'Production' });
    expect(within(card).getByRole('link', { name: '1 unhealthy' })).toHaveAttribute('href', '/health?status=unhealthy');
    expect(within(card).getByRole('link', { name: '3 critical' })).toHaveAttribute('href', `/catalog/insights?component=${ROOT}&type=security&severity=critical`);
    expect(within(card).getByRole('link', { name: 'Cluster' })).toHaveAttribute('href', '/topology?type=Cluster');
    expect(within(card).getByRole('link', { name: 'Logs' })).toHaveAttribute('href', `/logs?topologyId=${ROOT}`);
    expect(within(card).getByRole('link', { name: 'Team Ops' })).toHaveAttribute('href', '/settings/teams/team-1');
  });

  it('says so when no component matches', async () => {
    renderTopology('/topology?type=Nothing');
    expect(await screen.findByText('There are no components matching this criteria')).toBeInTheDocument();
  });

  it('says so when the id answers with more than one component', async () => {
    respond(makeResponse([makeComponent({ id: PARENT, name: 'one' }), makeComponent({ id: CHILD, name: 'two' })]));
    renderTopology(`/topology/${PARENT}`);
    expect(await screen.findByText('Response has multiple components for the id')).toBeInTheDocument();
  });

  it('shows the server message when the topology cannot be loaded', async () => {
    topologyResponse = () => HttpResponse.json({ code: 'OD_BAD_REQUEST', message: 'status must be one of healthy, unhealthy', details: null, hint: null }, { status: 400 });
    renderTopology('/topology?status=bogus');
    expect(await screen.findByRole('alert')).toHaveTextContent('Topology could not be loaded: status must be one of healthy, unhealthy');
  });

  it('keeps the card size, width and view type in local storage across a remount', async () => {
    const user = userEvent.setup();
    respond(makeResponse([makeComponent({ id: ROOT, name: 'Production', components: [makeRow({ id: CHILD, name: 'api', parent_id: ROOT, status: 'unhealthy' })] })]));
    const first = renderTopology();
    const card = await screen.findByRole('article', { name: 'Production' });
    expect(card).toHaveStyle({ width: '258px' });
    await choose(user, 'Card size', 'Large');
    await waitFor(() => expect(screen.getByRole('article', { name: 'Production' })).toHaveStyle({ width: '356px' }));
    await choose(user, 'View', 'Detailed');
    expect(await screen.findByRole('list', { name: 'Children of Production' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('slider', { name: 'Card width' }), { target: { value: '400' } });
    await waitFor(() => expect(screen.getByRole('article', { name: 'Production' })).toHaveStyle({ width: '400px' }));
    first.unmount();

    renderTopology();
    const again = await screen.findByRole('article', { name: 'Production' });
    expect(again).toHaveStyle({ width: '400px' });
    expect(screen.getByRole('combobox', { name: 'Card size' })).toHaveTextContent('Large');
    expect(screen.getByRole('list', { name: 'Children of Production' })).toBeInTheDocument();
  });

  it('builds the breadcrumb from the path with names from component_names', async () => {
    const child = makeComponent({ id: CHILD, name: 'api', parent_id: PARENT, path: `${ROOT}.${PARENT}` });
    respond(makeResponse([{ ...child, components: [] }]));
    renderTopology(`/topology/${CHILD}?type=Service&status=healthy`);
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(await within(breadcrumb).findByRole('link', { name: 'Production' })).toHaveAttribute('href', `/topology/${ROOT}?type=Service`);
    expect(within(breadcrumb).getByRole('link', { name: 'Payments' })).toHaveAttribute('href', `/topology/${PARENT}?type=Service`);
    expect(within(breadcrumb).getByRole('link', { name: 'Topology' })).toHaveAttribute('href', '/topology?type=Service');
    expect(within(breadcrumb).getByRole('heading', { name: 'api' })).toHaveAttribute('aria-current', 'page');
    expect(namesRequests.at(-1)?.searchParams.get('id')).toBe(`in.(${ROOT},${PARENT})`);
    await waitFor(() => expect(document.title).toBe('api | Opsdeck'));
  });

  it('offers a viewer no Link actions on a card but the topology settings, and an editor both Links', async () => {
    const user = userEvent.setup();
    respond(makeResponse([makeComponent({ id: ROOT, name: 'Production' })]));
    const viewer = renderTopology();
    await user.click(await screen.findByRole('button', { name: 'Actions for Production' }));
    expect(await screen.findByRole('menuitem', { name: 'Snapshot' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Link to config' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Link to team' })).not.toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Topology settings' })).toHaveAttribute('href', '/settings/topologies/t0000000-0000-4000-8000-000000000001');
    viewer.unmount();

    roles = ['editor'];
    renderTopology();
    await user.click(await screen.findByRole('button', { name: 'Actions for Production' }));
    expect(await screen.findByRole('menuitem', { name: 'Link to config' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Link to team' })).toBeInTheDocument();
  });

  it("opens a card's snapshot dialog from its menu", async () => {
    const user = userEvent.setup();
    respond(makeResponse([makeComponent({ id: ROOT, name: 'Production' })]));
    renderTopology();
    await user.click(await screen.findByRole('button', { name: 'Actions for Production' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Snapshot' }));
    expect(await screen.findByRole('dialog', { name: 'Snapshot' })).toBeInTheDocument();
  });

  it("opens the current component's side panel and remembers when it is hidden", async () => {
    const user = userEvent.setup();
    respond(makeResponse([parentWith([makeComponent({ id: CHILD, name: 'api', parent_id: PARENT })])]));
    const first = renderTopology(`/topology/${PARENT}`);
    const panel = await screen.findByRole('complementary', { name: 'Component panel' });
    expect(within(panel).getByRole('heading', { name: 'Payments' })).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Hide side panel' }));
    expect(await screen.findByRole('button', { name: 'Show side panel' })).toBeInTheDocument();
    first.unmount();

    renderTopology(`/topology/${PARENT}`);
    expect(await screen.findByRole('button', { name: 'Show side panel' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Actions for api' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Open side panel' }));
    const reopened = await screen.findByRole('complementary', { name: 'Component panel' });
    expect(within(reopened).getByRole('heading', { name: 'api' })).toBeInTheDocument();
  });
});
