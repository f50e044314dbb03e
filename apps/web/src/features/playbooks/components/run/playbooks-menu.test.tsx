import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { RunnablePlaybook } from '@opsdeck/shared';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { usePermissions } from '@/lib/auth/permissions';
import { PlaybooksMenu } from './playbooks-menu';

const CHECK_ID = '30000000-0000-4000-8000-000000000001';
const PLAYBOOK_ID = '60000000-0000-4000-8000-000000000001';

let roles: string[] = ['editor'];
let offered: RunnablePlaybook[] = [];
let listRequests: RecordedRequest[] = [];

const RESTART: RunnablePlaybook = {
  id: PLAYBOOK_ID,
  name: 'restart-probe',
  title: 'Restart probe',
  icon: 'restart',
  category: null,
  description: null,
  spec: { checks: [{ types: ['http'] }], actions: [{ name: 'restart', http: { url: 'https://example.com' } }] },
};

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/playbook/list', async ({ request }) => {
    listRequests.push(await readRequest(request));
    return HttpResponse.json(offered);
  }),
  http.get('*/api/db/checks', () => HttpResponse.json([{ id: CHECK_ID, name: 'checkout-api', type: 'http' }])),
  http.get('*/api/playbook/:id/preflight', () => HttpResponse.json({ needs: [] })),
);

afterEach(() => {
  roles = ['editor'];
  offered = [];
  listRequests = [];
});

/** Says when the session's roles are known, so a test can tell 'hidden' from 'not decided yet'. */
function RolesKnown() {
  return usePermissions().isReady ? <p>Roles known</p> : null;
}

describe('Playbooks menu', () => {
  it('renders nothing for a user who may not request runs', async () => {
    roles = ['viewer'];
    renderWithProviders(
      <>
        <RolesKnown />
        <PlaybooksMenu target={{ type: 'check', id: CHECK_ID }} />
      </>,
    );
    await screen.findByText('Roles known');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(listRequests).toHaveLength(0);
  });

  it('lists the playbooks offered for the item when opened and runs the chosen one on it', async () => {
    offered = [RESTART];
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PlaybooksMenu target={{ type: 'check', id: CHECK_ID }} />);
    const trigger = await screen.findByRole('button', { name: 'Playbooks' });
    expect(listRequests).toHaveLength(0);
    await user.click(trigger);
    const item = await screen.findByRole('menuitem', { name: 'Restart probe' });
    expect(listRequests[0]?.url.searchParams.get('check_id')).toBe(CHECK_ID);
    await user.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart probe' });
    const picker = within(dialog).getByRole('combobox', { name: /Check/ });
    expect(picker).toBeDisabled();
    await waitFor(() => expect(picker).toHaveValue('checkout-api'));
    expect(within(dialog).getByText('No parameters for this playbook.')).toBeInTheDocument();
  });

  it("says 'No playbooks' when none is offered", async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PlaybooksMenu target={{ type: 'check', id: CHECK_ID }} />);
    await user.click(await screen.findByRole('button', { name: 'Playbooks' }));
    expect(await screen.findByRole('menuitem', { name: 'No playbooks' })).toHaveAttribute('data-disabled');
  });

  it("offers the same list behind a 'Run' button in its button form", async () => {
    offered = [RESTART];
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PlaybooksMenu variant="button" target={{ type: 'config', id: CHECK_ID }} />);
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('menuitem', { name: 'Restart probe' })).toBeInTheDocument();
    expect(listRequests[0]?.url.searchParams.get('config_id')).toBe(CHECK_ID);
  });
});
