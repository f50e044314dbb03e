import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import type { UserSummary } from '@opsdeck/shared';
import { authModeHandler, readRequest, setupMswServer, whoamiHandler, type AuthModeName, type RecordedRequest } from '@/test/msw';
import { renderRoutes, renderWithProviders } from '@/test/render';
import { usersRoutes } from '../routes';
import { UsersPage } from './users-page';

/** The PostgREST search the page sends for `text`: name or e-mail containing it (the test data has no escapes). */
const SEARCH = /^\(name\.ilike\.\*(.*)\*,email\.ilike\.\*\1\*\)$/;

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
    invited: false,
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
    invited: false,
    created_at: '2024-02-05T10:00:00Z',
    updated_at: '2024-02-05T10:00:00Z',
  },
];

let roles = ['admin'];
let mode: AuthModeName = 'self-hosted';
let recorded: RecordedRequest[] = [];
/** The Prefer header of each identities_summary request, in order. */
let prefers: (string | null)[] = [];
/** The total the server reports instead of the number of matching users, to page through more than two. */
let totalOverride: number | null = null;
let inviteAnswer: () => Response = () => HttpResponse.json({ id: '33333333-3333-4333-8333-333333333333', existing: false });

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

setupMswServer(
  whoamiHandler(() => roles),
  authModeHandler(() => mode),
  // Searches, counts and pages as the data API does: `or` with ilike, offset and limit, Content-Range with the count,
  // 416 for an offset past the end. The role picker asks for id,name,email only.
  http.get('*/api/db/identities_summary', async ({ request }) => {
    await record(request);
    prefers.push(request.headers.get('prefer'));
    const url = new URL(request.url);
    const needle = SEARCH.exec(url.searchParams.get('or') ?? '')?.[1]?.toLowerCase() ?? null;
    const matching = needle === null ? users : users.filter((user) => `${user.name}\n${user.email ?? ''}`.toLowerCase().includes(needle));
    const offset = Number(url.searchParams.get('offset') ?? '0');
    const limit = Number(url.searchParams.get('limit') ?? '1000');
    const total = totalOverride ?? matching.length;
    if (offset > 0 && offset >= total) {
      return HttpResponse.json(
        { code: 'PGRST103', message: 'Requested range not satisfiable', details: `An offset of ${offset} was requested, but there are only ${total} rows.`, hint: null },
        { status: 416 },
      );
    }
    const rows = matching.slice(offset, offset + limit);
    const body = url.searchParams.get('select') === 'id,name,email' ? rows.map(({ id, name, email }) => ({ id, name, email })) : rows;
    const range = rows.length === 0 ? `*/${total}` : `${offset}-${offset + rows.length - 1}/${total}`;
    return HttpResponse.json(body, { headers: { 'Content-Range': range } });
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
  prefers = [];
  totalOverride = null;
  inviteAnswer = () => HttpResponse.json({ id: '33333333-3333-4333-8333-333333333333', existing: false });
});

const sent = (method: string, path: string) => recorded.filter((request) => request.method === method && request.url.pathname.endsWith(path));

/** The Users screen's list requests (the role picker asks the same view for id,name,email only). */
const listRequests = () => sent('GET', '/identities_summary').filter((request) => request.url.searchParams.get('select') !== 'id,name,email');
const pickerRequests = () => sent('GET', '/identities_summary').filter((request) => request.url.searchParams.get('select') === 'id,name,email');
const lastList = () => listRequests().at(-1)?.url.searchParams;

async function openTable() {
  renderWithProviders(<UsersPage />, { toaster: true });
  const table = await screen.findByRole('table', { name: 'Users' });
  await within(table).findByText('Ada Admin');
  return table;
}

function CurrentSearch() {
  return <output data-testid="location">{useLocation().search}</output>;
}

/** The page at `path`, with the URL's query string readable through currentSearch(). */
function renderAt(path: string) {
  renderRoutes(
    [
      {
        path: '/settings/users',
        element: (
          <>
            <CurrentSearch />
            <UsersPage />
          </>
        ),
      },
    ],
    path,
    { toaster: true },
  );
}

// By test id: an open dialog hides the rest of the page from the accessibility tree.
const currentSearch = () => screen.getByTestId('location').textContent;

async function choose(name: RegExp, option: string | RegExp) {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Opens Invite User, fills it in and presses Invite; the dialog, for what the test looks at next. */
async function invite(user: ReturnType<typeof userEvent.setup>, person: { first: string; last: string; email: string; role: string }): Promise<HTMLElement> {
  await user.click(screen.getByRole('button', { name: 'Invite User' }));
  const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
  await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), person.first);
  await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), person.last);
  await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), person.email);
  await choose(/Role/, person.role);
  await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
  return dialog;
}

describe('Users page', () => {
  it('lists users with their name, email, roles, state and creation date, read from identities_summary', async () => {
    const table = await openTable();
    for (const header of ['Name', 'Email', 'Roles', 'State', 'Created At', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = within(table).getByText('bart@example.test').closest('tr');
    if (row === null) throw new Error('no row for Bart');
    expect(within(row).getByText('viewer')).toBeInTheDocument();
    expect(within(row).getByText('Inactive')).toBeInTheDocument();
    expect(sent('GET', '/identities_summary')[0]?.url.searchParams.get('select')).toBe('id,name,email,avatar,roles,state,invited,created_at,updated_at');
  });

  it('asks the server for the first page of 50 by name with the exact count, and shows that count', async () => {
    totalOverride = 120;
    await openTable();
    const params = lastList();
    expect(params?.get('order')).toBe('name.asc.nullslast,id.asc');
    expect(params?.get('offset')).toBe('0');
    expect(params?.get('limit')).toBe('50');
    expect(params?.get('or')).toBeNull();
    expect(prefers[0]).toContain('count=exact');
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pager).toHaveTextContent('120 items');
    expect(pager).toHaveTextContent('of 3');
  });

  it('pages through the users with the page in the URL, asking the server for each page’s offset', async () => {
    totalOverride = 120;
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/users');
    await screen.findByText('Ada Admin');
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    await user.click(within(pager).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(currentSearch()).toContain('page=2'));
    await waitFor(() => expect(lastList()?.get('offset')).toBe('50'));
    expect(lastList()?.get('limit')).toBe('50');

    await user.selectOptions(within(pager).getByRole('combobox', { name: 'Rows per page' }), '100');
    await waitFor(() => expect(currentSearch()).toContain('pageSize=100'));
    expect(currentSearch()).not.toContain('page=2');
    await waitFor(() => expect(lastList()?.get('limit')).toBe('100'));
    expect(lastList()?.get('offset')).toBe('0');
  });

  it('reads the page, page size and order from the URL', async () => {
    totalOverride = 120;
    renderAt('/settings/users?page=2&pageSize=25&sortBy=created_at&sortOrder=desc');
    await waitFor(() => expect(lastList()?.get('offset')).toBe('25'));
    expect(lastList()?.get('limit')).toBe('25');
    expect(lastList()?.get('order')).toBe('created_at.desc.nullslast,id.asc');
    expect(await screen.findByRole('columnheader', { name: /Created At/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('sorts on the server by the clicked column, keeping the order in the URL and going back to the first page', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/users?page=1');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('Ada Admin');
    expect(within(table).getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: 'Roles' })).not.toHaveAttribute('aria-sort');
    await user.click(within(within(table).getByRole('columnheader', { name: /Email/ })).getByRole('button'));
    await waitFor(() => expect(currentSearch()).toContain('sortBy=email'));
    expect(currentSearch()).not.toContain('page=');
    await waitFor(() => expect(lastList()?.get('order')).toMatch(/^email\.(asc|desc)\.nullslast,id\.asc$/));
  });

  it('goes to the last page there is when the URL asks for a page past the end', async () => {
    renderAt('/settings/users?page=9');
    expect(await screen.findByText('Ada Admin')).toBeInTheDocument();
    expect(currentSearch()).not.toContain('page=');
    expect(listRequests().some((request) => request.url.searchParams.get('offset') === '400')).toBe(true);
  });

  it('searches names and e-mails on the server once typing pauses, with the search in the URL', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/users?page=2');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('Ada Admin');
    const before = listRequests().length;
    await user.type(screen.getByRole('searchbox', { name: 'Search users by name or email' }), 'BART');
    await waitFor(() => expect(currentSearch()).toContain('search=BART'));
    expect(currentSearch()).not.toContain('page=');
    // One request for the whole word: the box waits for typing to pause.
    await waitFor(() => expect(lastList()?.get('or')).toBe('(name.ilike.*BART*,email.ilike.*BART*)'));
    expect(listRequests().filter((request) => request.url.searchParams.has('or'))).toHaveLength(1);
    expect(listRequests().length).toBe(before + 1);
    await waitFor(() => expect(within(table).queryByText('Ada Admin')).not.toBeInTheDocument());
    expect(within(table).getByText('bart@example.test')).toBeInTheDocument();
  });

  it('keeps the characters of the filter grammar in a search from changing the filter', async () => {
    renderAt(`/settings/users?search=${encodeURIComponent('a,b(c)*%_')}`);
    await waitFor(() => expect(lastList()?.get('or')).toBe('(name.ilike.*a_b_c__\\%\\_*,email.ilike.*a_b_c__\\%\\_*)'));
    expect(screen.getByRole('searchbox', { name: 'Search users by name or email' })).toHaveValue('a,b(c)*%_');
  });

  it('says so when no user matches the search', async () => {
    renderAt('/settings/users?search=nobody');
    expect(await screen.findByText('No users match “nobody”')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('0 items');
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
    await invite(user, { first: 'Grace', last: 'Hopper', email: 'grace@example.test', role: 'Responder' });

    expect(await screen.findByText('Grace Hopper invited successfully')).toBeInTheDocument();
    expect(sent('POST', '/invite_user')[0]?.body).toEqual({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test', role: 'responder' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite User' })).not.toBeInTheDocument());
    await waitFor(() => expect(sent('GET', '/identities_summary')).toHaveLength(2));
  });

  it('shows an invitee who has not used the invitation link yet as Invited, not Active', async () => {
    users.push({
      id: '33333333-3333-4333-8333-333333333333',
      name: 'Grace Invitee',
      email: 'grace.invitee@example.test',
      avatar: null,
      roles: ['viewer'],
      state: 'active',
      invited: true,
      created_at: '2024-03-05T10:00:00Z',
      updated_at: '2024-03-05T10:00:00Z',
    });
    try {
      const table = await openTable();
      const row = within(table).getByText('grace.invitee@example.test').closest('tr');
      if (row === null) throw new Error('no row for Grace');
      expect(within(row).getByText('Invited')).toBeInTheDocument();
      expect(within(row).queryByText('Active')).not.toBeInTheDocument();
    } finally {
      users.pop();
    }
  });

  it('hands the admin the invitation link to copy when no mail server sends it', async () => {
    inviteAnswer = () => HttpResponse.json({ id: LONG_ID, existing: false, link: { url: 'http://opsdeck.test/self-service/recovery/link?token=abc', expiresAt: '2030-01-01T00:00:00Z' } });
    const user = userEvent.setup({ delay: null });
    await openTable();
    const dialog = await invite(user, { first: 'Grace', last: 'Hopper', email: 'grace@example.test', role: 'Responder' });

    expect(await within(dialog).findByRole('textbox', { name: 'Invitation link' })).toHaveValue('http://opsdeck.test/self-service/recovery/link?token=abc');
    expect(dialog).toHaveTextContent('No mail server is configured');
    expect(within(dialog).getByRole('button', { name: 'Copy invitation link' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite User' })).not.toBeInTheDocument());
  });

  it('gives an existing user the role without a confirmation toast', async () => {
    inviteAnswer = () => HttpResponse.json({ id: ADA_ID, existing: true });
    const user = userEvent.setup({ delay: null });
    await openTable();
    await invite(user, { first: 'Ada', last: 'Admin', email: 'admin@opsdeck.local', role: 'Editor' });

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite User' })).not.toBeInTheDocument());
    expect(sent('POST', '/invite_user')).toHaveLength(1);
    expect(screen.queryByText('Ada Admin invited successfully')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of an invitation and keeps the dialog open', async () => {
    inviteAnswer = () =>
      HttpResponse.json({ code: 'OD_INVITE_MAIL', message: 'The invitation mail could not be sent, so the user was not created', details: null, hint: null }, { status: 502 });
    const user = userEvent.setup({ delay: null });
    await openTable();
    await invite(user, { first: 'No', last: 'Mail', email: 'no.mail@example.test', role: 'Viewer' });
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

    await user.type(within(dialog).getByRole('combobox', { name: /User/ }), 'bart');
    const shortened = `${[...LONG_NAME].slice(0, 50).join('')}… (bart@example.test)`;
    await user.click(await within(dialog).findByRole('option', { name: shortened }));
    expect(within(dialog).getByText(shortened)).toBeInTheDocument();
    await choose(/Role/, 'Editor');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(`${LONG_NAME} role updated successfully`)).toBeInTheDocument();
    const call = sent('POST', `/api/rbac/${LONG_ID}/update_role`)[0];
    expect(call?.body).toEqual({ roles: ['editor'] });
  });

  it('asks the server for the users matching what is typed in the role picker, never for everyone', async () => {
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Add Role to User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update User Role' });
    const picker = within(dialog).getByRole('combobox', { name: /User/ });
    expect(picker).toHaveFocus();
    expect(within(dialog).getByText('Type to search')).toBeInTheDocument();
    expect(pickerRequests()).toEqual([]);

    await user.type(picker, 'ADMIN');
    expect(await within(dialog).findByRole('option', { name: 'Ada Admin (admin@opsdeck.local)' })).toBeInTheDocument();
    expect(pickerRequests()).toHaveLength(1);
    const params = pickerRequests()[0]?.url.searchParams;
    expect(params?.get('or')).toBe('(name.ilike.*ADMIN*,email.ilike.*ADMIN*)');
    expect(params?.get('order')).toBe('name.asc,id.asc');
    expect(params?.get('limit')).toBe('50');

    await user.clear(picker);
    await user.type(picker, 'zzz');
    expect(await within(dialog).findByText('No matching users')).toBeInTheDocument();
    expect(within(dialog).queryByRole('option')).not.toBeInTheDocument();
  });

  it('picks a user in the role picker with the arrow keys and Enter, without submitting the form', async () => {
    const user = userEvent.setup({ delay: null });
    await openTable();
    await user.click(screen.getByRole('button', { name: 'Add Role to User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update User Role' });
    const picker = within(dialog).getByRole('combobox', { name: /User/ });
    await user.type(picker, 'a');
    await within(dialog).findByRole('option', { name: /bart@example\.test/ });
    expect(within(dialog).getAllByRole('option')).toHaveLength(2);
    await user.keyboard('{ArrowDown}');
    expect(picker).toHaveAttribute('aria-activedescendant', within(dialog).getByRole('option', { name: /bart@example\.test/ }).id);
    await user.keyboard('{Enter}');
    const shortened = `${[...LONG_NAME].slice(0, 50).join('')}… (bart@example.test)`;
    expect(within(dialog).getByText(shortened)).toBeInTheDocument();
    expect(within(dialog).queryByText('Please select any role')).not.toBeInTheDocument();
    expect(picker).toHaveValue('');
    expect(within(dialog).getByText('Type to search')).toBeInTheDocument();
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

describe('the /settings/users route', () => {
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
