import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { UserSummary } from '@opsdeck/shared';
import { authModeHandler, readRequest, setupMswServer, whoamiHandler, type AuthModeName, type RecordedRequest } from '@/test/msw';
import { renderRoutes, renderWithProviders } from '@/test/render';
import { usersRoutes } from '../routes';
import { UsersPage } from './users-page';

const ADA_ID = '11111111-1111-4111-8111-111111111111';
const LONG_ID = '22222222-2222-4222-8222-222222222222';
const LONG_NAME = `Bartholomew ${'Featherstonehaugh-'.repeat(4)}Smythe`;

const users: UserSummary[] = [
  {
    id: ADA_ID,
    name: 'Ada Admin',
    email: 'admin@opsdeck.local',
    avatar: null,
    roles: ['admin'],
    state: 'active',
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-05T10:00:00Z',
  },
  {
    id: LONG_ID,
    name: LONG_NAME,
    email: 'bart@example.test',
    avatar: null,
    roles: ['viewer'],
    state: 'inactive',
    created_at: '2024-02-05T10:00:00Z',
    updated_at: '2024-02-05T10:00:00Z',
  },
];

let roles = ['admin'];
let mode: AuthModeName = 'self-hosted';
let recorded: RecordedRequest[] = [];
let inviteAnswer: () => Response = () => HttpResponse.json({ id: '33333333-3333-4333-8333-333333333333', existing: false });

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

setupMswServer(
  whoamiHandler(() => roles),
  authModeHandler(() => mode),
  http.get('*/api/db/identities_summary', async ({ request }) => {
    await record(request);
    return HttpResponse.json(users);
  }),
  http.post('*/api/auth/invite_user', async ({ request }) => {
    await record(request);
    return inviteAnswer();
  }),
  http.post('*/api/rbac/:id/update_role', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ id: LONG_ID, roles: ['editor'] });
  }),
  ...(['patch', 'delete'] as const).map((method) =>
    http[method]('*/api/db/identities', async ({ request }) => {
      await record(request);
      return new HttpResponse(null, { status: 204 });
    }),
  ),
);

afterEach(() => {
  roles = ['admin'];
  mode = 'self-hosted';
  recorded = [];
  inviteAnswer = () => HttpResponse.json({ id: '33333333-3333-4333-8333-333333333333', existing: false });
});

const sent = (method: string, path: string) => recorded.filter((request) => request.method === method && request.url.pathname.endsWith(path));

async function openTable() {
  renderWithProviders(<UsersPage />, { toaster: true });
  const table = await screen.findByRole('table', { name: 'Users' });
  await within(table).findByText('Ada Admin');
  return table;
}

async function choose(name: RegExp, option: string | RegExp) {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Users page', { timeout: 20_000 }, () => {
  it('lists users with their name, email, roles, state and creation date, read from identities_summary', async () => {
    const table = await openTable();
    for (const header of ['Name', 'Email', 'Roles', 'State', 'Created At', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = within(table).getByText('bart@example.test').closest('tr');
    if (row === null) throw new Error('no row for Bart');
    expect(within(row).getByText('viewer')).toBeInTheDocument();
    expect(within(row).getByText('Inactive')).toBeInTheDocument();
    expect(sent('GET', '/identities_summary')[0]?.url.searchParams.get('select')).toBe('id,name,email,avatar,roles,state,created_at,updated_at');
  });

  it('offers no actions, invitation or role change to an editor, who may read users but not manage them', async () => {
    roles = ['editor'];
    const table = await openTable();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite User' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Role to User' })).not.toBeInTheDocument();
  });

  it('says what is missing in the invitation, in the spec’s words, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    for (const message of ['Please provide valid first name', 'Please provide valid last name', 'Please provide valid email', 'Please select any role']) {
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
    }
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'grace at navy');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Entered value does not match email format')).toBeInTheDocument();
    expect(sent('POST', '/invite_user')).toEqual([]);
  });

  it('invites a user with the chosen role and says so', async () => {
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), 'Grace');
    await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), 'Hopper');
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'grace@example.test');
    await choose(/Role/, 'Responder');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));

    expect(await screen.findByText('Grace Hopper invited successfully')).toBeInTheDocument();
    expect(sent('POST', '/invite_user')[0]?.body).toEqual({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test', role: 'responder' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite User' })).not.toBeInTheDocument());
    await waitFor(() => expect(sent('GET', '/identities_summary')).toHaveLength(2));
  });

  it('gives an existing user the role without a confirmation toast', async () => {
    inviteAnswer = () => HttpResponse.json({ id: ADA_ID, existing: true });
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), 'Ada');
    await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), 'Admin');
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'admin@opsdeck.local');
    await choose(/Role/, 'Editor');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite User' })).not.toBeInTheDocument());
    expect(sent('POST', '/invite_user')).toHaveLength(1);
    expect(screen.queryByText('Ada Admin invited successfully')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of an invitation and keeps the dialog open', async () => {
    inviteAnswer = () =>
      HttpResponse.json({ code: 'OD_INVITE_MAIL', message: 'The invitation mail could not be sent, so the user was not created', details: null, hint: null }, { status: 502 });
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), 'No');
    await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), 'Mail');
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'no.mail@example.test');
    await choose(/Role/, 'Viewer');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('The invitation mail could not be sent, so the user was not created')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Invite User' })).toBeInTheDocument();
  });

  it('asks for a user and a role before updating, and names long users by their first 50 characters', async () => {
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Add Role to User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update User Role' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please select any user')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select any role')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: /User/ }));
    const shortened = `${[...LONG_NAME].slice(0, 50).join('')}… (bart@example.test)`;
    await user.click(await screen.findByRole('option', { name: shortened }));
    await choose(/Role/, 'Editor');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(`${LONG_NAME} role updated successfully`)).toBeInTheDocument();
    const call = sent('POST', `/api/rbac/${LONG_ID}/update_role`)[0];
    expect(call?.body).toEqual({ roles: ['editor'] });
  });

  it('deletes a user after the Delete User ? confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const table = await openTable();
    await user.click(within(table).getByRole('button', { name: `Delete ${LONG_NAME}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete User ?' });
    expect(sent('DELETE', '/identities')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('user deleted successfully')).toBeInTheDocument();
    expect(sent('DELETE', '/identities')[0]?.url.searchParams.get('id')).toBe(`eq.${LONG_ID}`);
  });

  it('cancels a deletion without asking the server', async () => {
    const user = userEvent.setup({ delay: null });
    const table = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Delete Ada Admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete User ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete User ?' })).not.toBeInTheDocument());
    expect(sent('DELETE', '/identities')).toEqual([]);
  });

  it('deactivates an active user and activates an inactive one', async () => {
    const user = userEvent.setup({ delay: null });
    const table = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Deactivate Ada Admin' }));
    expect(await screen.findByText('Ada Admin deactivated successfully')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: `Activate ${LONG_NAME}` }));
    await waitFor(() => expect(sent('PATCH', '/identities')).toHaveLength(2));
    const [first, second] = sent('PATCH', '/identities');
    expect(first?.url.searchParams.get('id')).toBe(`eq.${ADA_ID}`);
    expect(first?.body).toEqual({ state: 'inactive' });
    expect(second?.body).toEqual({ state: 'active' });
  });
});

describe('the /settings/users route', { timeout: 20_000 }, () => {
  it('shows the Users page when people sign in with the built-in service', async () => {
    renderRoutes(usersRoutes, '/settings/users');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
  });

  it('is hidden when people sign in through an external provider, and never asks for the users', async () => {
    mode = 'hosted';
    renderRoutes(usersRoutes, '/settings/users');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText(/Example ID/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Users' })).not.toBeInTheDocument();
    expect(sent('GET', '/identities_summary')).toEqual([]);
  });

  it('shows the Unauthorized panel to a role that may not read users', async () => {
    roles = ['responder'];
    renderRoutes(usersRoutes, '/settings/users');
    expect(await screen.findByRole('heading', { name: 'Unauthorized' })).toBeInTheDocument();
    expect(sent('GET', '/identities_summary')).toEqual([]);
  });
});
