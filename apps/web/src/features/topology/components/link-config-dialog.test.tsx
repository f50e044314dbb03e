import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { COMPONENT_ID, topologyComponent } from './side-panel/panel-test-support';
import { LinkConfigDialog } from './link-config-dialog';
import { LinkTeamDialog } from './link-team-dialog';

const PAYMENTS_DB = '40000000-0000-4000-8000-000000000001';
const PAYMENTS_QUEUE = '40000000-0000-4000-8000-000000000002';
const LINKED = '40000000-0000-4000-8000-000000000003';
const TEAM_A = '50000000-0000-4000-8000-000000000001';
const TEAM_B = '50000000-0000-4000-8000-000000000002';

let searches: RecordedRequest[] = [];
let posts: RecordedRequest[] = [];
let matches: unknown[] = [];

const server = setupMswServer(
  whoamiHandler(() => ['editor']),
  http.get('*/api/db/configs', async ({ request }) => {
    searches.push(await readRequest(request));
    return HttpResponse.json(matches);
  }),
  http.get('*/api/db/config_component_relationships', () =>
    HttpResponse.json([{ config_id: LINKED, selector_id: 'spec', config: { id: LINKED, name: 'payments-cache', type: 'Redis', health: 'healthy', status: null } }]),
  ),
  http.post('*/api/db/config_component_relationships', async ({ request }) => {
    posts.push(await readRequest(request));
    return new HttpResponse(null, { status: 201 });
  }),
  http.get('*/api/db/teams', () => HttpResponse.json([{ id: TEAM_A, name: 'Payments', icon: null }, { id: TEAM_B, name: 'Platform', icon: null }])),
  http.get('*/api/db/team_components', () => HttpResponse.json([{ team_id: TEAM_B, role: null, selector_id: 'spec', team: { id: TEAM_B, name: 'Platform', icon: null } }])),
  http.post('*/api/db/team_components', async ({ request }) => {
    posts.push(await readRequest(request));
    return new HttpResponse(null, { status: 201 });
  }),
);

afterEach(() => {
  searches = [];
  posts = [];
  matches = [];
});

const config = (id: string, name: string) => ({ id, name, type: 'AWS::RDS' });

function renderConfigDialog(onOpenChange: (open: boolean) => void = () => undefined) {
  return renderWithProviders(<LinkConfigDialog component={topologyComponent()} open onOpenChange={onOpenChange} />, { toaster: true });
}

describe('Link to config dialog', () => {
  it('searches once typing pauses, by name, live items only, ordered by name and capped at 50', async () => {
    matches = [config(PAYMENTS_DB, 'payments-db')];
    const user = userEvent.setup({ delay: null });
    renderConfigDialog();
    await user.type(await screen.findByRole('searchbox', { name: 'Search configs' }), 'p_y');
    expect(await screen.findByRole('radio', { name: /payments-db/ })).toBeInTheDocument();
    await waitFor(() => expect(searches.at(-1)?.url.searchParams.get('name')).toBe('ilike.*p\\_y*'));
    const params = searches.at(-1)?.url.searchParams;
    expect(params?.get('limit')).toBe('50');
    expect(params?.get('order')).toBe('name.asc');
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('select')).toBe('id,name,type');
    // Three characters typed in a row: the list was asked once on opening and once for the finished text only.
    expect(searches.filter((request) => request.url.searchParams.has('name'))).toHaveLength(1);
  });

  it("says 'Showing the first 50 matches' when the cap is reached", async () => {
    matches = Array.from({ length: 50 }, (_, index) => config(`40000000-0000-4000-8000-${String(index).padStart(12, '0')}`, `item-${index}`));
    renderConfigDialog();
    expect(await screen.findByText('Showing the first 50 matches')).toBeInTheDocument();
  });

  it('shows an item already linked as linked and not pickable', async () => {
    matches = [config(LINKED, 'payments-cache'), config(PAYMENTS_DB, 'payments-db')];
    renderConfigDialog();
    const linked = await screen.findByRole('radio', { name: /payments-cache/ });
    expect(linked).toBeDisabled();
    expect(linked.closest('label')).toHaveTextContent('Linked');
    expect(screen.getByRole('radio', { name: /payments-db/ })).toBeEnabled();
  });

  it("links the picked item by hand, says 'config link successful' and closes", async () => {
    matches = [config(PAYMENTS_DB, 'payments-db'), config(PAYMENTS_QUEUE, 'payments-queue')];
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderConfigDialog(onOpenChange);
    const dialog = await screen.findByRole('dialog', { name: 'Link checkout to config' });
    expect(within(dialog).getByRole('button', { name: 'Link' })).toBeDisabled();
    // Keyboard: pick with the arrows, link with Enter.
    await user.click(await within(dialog).findByRole('radio', { name: /payments-db/ }));
    await user.keyboard('{ArrowDown}');
    expect(within(dialog).getByRole('radio', { name: /payments-queue/ })).toBeChecked();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('config link successful')).toBeInTheDocument();
    expect(posts[0]?.url.pathname).toBe('/api/db/config_component_relationships');
    expect(posts[0]?.body).toEqual({ component_id: COMPONENT_ID, config_id: PAYMENTS_QUEUE, selector_id: 'manual' });
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  it("toasts the server's message when linking fails and stays open", async () => {
    server.use(
      http.post('*/api/db/config_component_relationships', () =>
        HttpResponse.json({ code: '23505', message: 'duplicate key value violates unique constraint', details: null, hint: null }, { status: 409 }),
      ),
    );
    matches = [config(PAYMENTS_DB, 'payments-db')];
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderConfigDialog(onOpenChange);
    await user.click(await screen.findByRole('radio', { name: /payments-db/ }));
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('duplicate key value violates unique constraint')).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });
});

describe('Link to team dialog', () => {
  it('lists the teams, shows a linked one as linked, and links the picked team by hand', async () => {
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<LinkTeamDialog component={topologyComponent()} open onOpenChange={onOpenChange} />, { toaster: true });
    expect(await screen.findByRole('radio', { name: /Platform/ })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: /Payments/ }));
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('team link successful')).toBeInTheDocument();
    expect(posts[0]?.url.pathname).toBe('/api/db/team_components');
    expect(posts[0]?.body).toEqual({ team_id: TEAM_A, component_id: COMPONENT_ID, selector_id: 'manual' });
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  it("toasts the server's message when linking the team fails", async () => {
    server.use(http.post('*/api/db/team_components', () => HttpResponse.json({ code: '42501', message: 'permission denied for team_components', details: null, hint: null }, { status: 403 })));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<LinkTeamDialog component={topologyComponent()} open onOpenChange={() => undefined} />, { toaster: true });
    await user.click(await screen.findByRole('radio', { name: /Payments/ }));
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('permission denied for team_components')).toBeInTheDocument();
  });
});
