import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Outlet } from 'react-router';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { RolesLoaded, waitForRoles } from '@/test/access-loaded';
import { renderRoutes } from '@/test/render';
import { usersRoutes } from '../../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const TEAM_ID = '55555555-5555-4555-8555-555555555555';

const person = (id: string, name: string, email: string) => ({ id, name, email, avatar: null, deleted_at: null });
const ADA = person(PERSON_ID, 'Ada Admin', 'admin@opsdeck.local');
const EDDIE = person('22222222-2222-4222-8222-222222222222', 'Eddie Editor', 'editor@opsdeck.local');
const CORA = person('33333333-3333-4333-8333-333333333333', 'Cora Commander', 'commander@opsdeck.local');
const REY = person('44444444-4444-4444-8444-444444444444', 'Rey Responder', 'responder@opsdeck.local');

const team = {
  id: TEAM_ID,
  name: 'Platform',
  icon: 'kubernetes',
  spec: {},
  source: null,
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
  deleted_at: null,
};

let roles = ['admin'];
let members = [ADA, EDDIE];
let everyone = [ADA, CORA, EDDIE, REY];
let searchFails = false;
let recorded: RecordedRequest[] = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/teams', () => HttpResponse.json([team])),
  http.get('*/api/db/teams_with_status', () =>
    HttpResponse.json([
      { ...team, job_status: null, last_runtime: null, job_last_failed: null, member_count: 3 },
      {
        ...team,
        id: '66666666-6666-4666-8666-666666666666',
        name: 'Storage',
        member_count: 1,
        spec: { responder_clients: { email: {}, jira: {} }, notifications: [{ connection: 'connection://default/storage-slack' }] },
        job_status: null,
        last_runtime: null,
        job_last_failed: null,
      },
    ]),
  ),
  http.get('*/api/db/team_members', async ({ request }) => {
    await record(request);
    return HttpResponse.json(members.map((member) => ({ team_id: TEAM_ID, person_id: member, created_at: '2024-01-07T10:00:00Z' })));
  }),
  http.get('*/api/db/people', async ({ request }) => {
    const params = new URL(request.url).searchParams;
    // The list's Created By avatars ask for id,name,avatar.
    if (params.get('select') === 'id,name,avatar') return HttpResponse.json([ADA]);
    // The add dialog's search, answered as the data API would: live people matching the text, without the members of
    // the team named in the team_members embed filter.
    await record(request);
    if (searchFails) return HttpResponse.json({ code: 'OD500', message: 'The database is busy', details: null, hint: null }, { status: 500 });
    const needle = /^\(name\.ilike\.\*(.*)\*,email\.ilike\.\*\1\*\)$/.exec(params.get('or') ?? '')?.[1]?.toLowerCase() ?? '';
    const excluded = params.get('team_members') === 'is.null' && params.get('team_members.team_id') === `eq.${TEAM_ID}` ? members : [];
    const found = everyone
      .filter((person) => !excluded.some((member) => member.id === person.id))
      .filter((person) => `${person.name}\n${person.email}`.toLowerCase().includes(needle))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ id, name, email, avatar }) => ({ id, name, email, avatar }));
    return HttpResponse.json(found);
  }),
  ...(['post', 'patch', 'delete'] as const).flatMap((method) =>
    ['team_members', 'teams'].map((table) =>
      http[method](`*/api/db/${table}`, async ({ request }) => {
        await record(request);
        return new HttpResponse(null, { status: method === 'post' ? 201 : 204 });
      }),
    ),
  ),
);

afterEach(() => {
  roles = ['admin'];
  members = [ADA, EDDIE];
  everyone = [ADA, CORA, EDDIE, REY];
  searchFails = false;
  recorded = [];
});

function renderAt(path: string) {
  return renderRoutes([{ element: <><RolesLoaded /><Outlet /></>, children: usersRoutes }], path, { toaster: true }).router;
}

/** Add Members is enabled once the members have loaded, and shown only once the roles allow it. */
async function openAddMembers(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  await screen.findByRole('list', { name: 'Members' });
  await user.click(await screen.findByRole('button', { name: 'Add Members' }));
  return screen.findByRole('dialog', { name: 'Add Team Members' });
}

const sent = (method: string, table: string) => recorded.filter((request) => request.method === method && request.url.pathname === `/api/db/${table}`);

describe('the Manage Team tab', () => {
  it('opens on the team’s members, asked for with the person embedded as spec 002 §7 calls it', async () => {
    renderAt(`/settings/teams/${TEAM_ID}`);
    const list = await screen.findByRole('list', { name: 'Members' });
    expect(within(list).getByText('Ada Admin')).toBeInTheDocument();
    expect(within(list).getByText('editor@opsdeck.local')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Manage Team' })).toHaveAttribute('aria-selected', 'true');
    const params = sent('GET', 'team_members')[0]?.url.searchParams;
    expect(params?.get('select')).toBe('*,person_id(*)');
    expect(params?.get('team_id')).toBe(`eq.${TEAM_ID}`);
  });

  it('says so when the team has no members yet', async () => {
    members = [];
    renderAt(`/settings/teams/${TEAM_ID}`);
    expect(await screen.findByText("You haven't added any team members to the team yet.")).toBeInTheDocument();
  });

  it('offers only people outside the team, gathers the picked ones, and adds them all with one call', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/teams/${TEAM_ID}`);
    const dialog = await openAddMembers(user);
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();

    await user.type(within(dialog).getByRole('combobox', { name: 'Users' }), 'opsdeck');
    await within(dialog).findByRole('option', { name: /Cora Commander/ });
    const offered = within(dialog).getAllByRole('option').map((option) => option.textContent);
    expect(offered).toEqual(['Cora Commander (commander@opsdeck.local)', 'Rey Responder (responder@opsdeck.local)']);
    await user.click(within(dialog).getByRole('option', { name: /Cora Commander/ }));
    // A picked user leaves the list at once; the others stay for the next pick.
    expect(within(dialog).queryByRole('option', { name: /Cora Commander/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('option', { name: /Rey Responder/ }));
    const pending = within(dialog).getByRole('list', { name: 'Users to add' });
    expect(within(pending).getAllByRole('listitem')).toHaveLength(2);
    expect(within(pending).getByText('Cora Commander')).toBeInTheDocument();
    expect(within(pending).getByText('Rey Responder')).toBeInTheDocument();
    await user.click(add);

    expect(await screen.findByText('Cora Commander, Rey Responder added to the team successfully')).toBeInTheDocument();
    expect(sent('POST', 'team_members')[0]?.body).toEqual([
      { team_id: TEAM_ID, person_id: CORA.id },
      { team_id: TEAM_ID, person_id: REY.id },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Team Members' })).not.toBeInTheDocument());
  });

  it('asks the server for people outside the team matching what is typed, 50 at most by name, and nothing before', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/teams/${TEAM_ID}`);
    const dialog = await openAddMembers(user);
    const picker = within(dialog).getByRole('combobox', { name: 'Users' });
    expect(picker).toHaveFocus();
    expect(within(dialog).getByText('Type to search')).toBeInTheDocument();
    expect(sent('GET', 'people')).toEqual([]);

    await user.type(picker, 'Rey');
    expect(await within(dialog).findByRole('option', { name: 'Rey Responder (responder@opsdeck.local)' })).toBeInTheDocument();
    expect(sent('GET', 'people')).toHaveLength(1);
    const params = sent('GET', 'people')[0]?.url.searchParams;
    expect(params?.get('select')).toBe('id,name,email,avatar,team_members()');
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('team_members.team_id')).toBe(`eq.${TEAM_ID}`);
    expect(params?.get('team_members')).toBe('is.null');
    expect(params?.get('or')).toBe('(name.ilike.*Rey*,email.ilike.*Rey*)');
    expect(params?.get('order')).toBe('name.asc,id.asc');
    expect(params?.get('limit')).toBe('50');

    // A member is not offered even when the text names them.
    await user.clear(picker);
    await user.type(picker, 'Eddie');
    expect(await within(dialog).findByText('No matching users')).toBeInTheDocument();
    expect(within(dialog).queryByRole('option')).not.toBeInTheDocument();
  });

  it('picks with the arrow keys and Enter, and names long users by their first 50 characters', async () => {
    const longName = `Bartholomew ${'Featherstonehaugh-'.repeat(4)}Smythe`;
    everyone = [...everyone, person('77777777-7777-4777-8777-777777777777', longName, 'bart@example.test')];
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/teams/${TEAM_ID}`);
    const dialog = await openAddMembers(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Users' }), 'e');
    await within(dialog).findByRole('option', { name: /Cora Commander/ });
    const shortened = `${[...longName].slice(0, 50).join('')}… (bart@example.test)`;
    expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual([
      shortened,
      'Cora Commander (commander@opsdeck.local)',
      'Rey Responder (responder@opsdeck.local)',
    ]);
    await user.keyboard('{ArrowDown}{Enter}');
    const pending = within(dialog).getByRole('list', { name: 'Users to add' });
    expect(within(pending).getByText('Cora Commander')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual([shortened, 'Rey Responder (responder@opsdeck.local)']);
  });

  it('shows a failed search in the dialog with a way to ask again', async () => {
    searchFails = true;
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/teams/${TEAM_ID}`);
    const dialog = await openAddMembers(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Users' }), 'Cora');
    expect(await within(dialog).findByText('Users could not be loaded: The database is busy')).toBeInTheDocument();
    searchFails = false;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('option', { name: /Cora Commander/ })).toBeInTheDocument();
  });

  it('lets a picked user be taken back before adding', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/teams/${TEAM_ID}`);
    const dialog = await openAddMembers(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Users' }), 'Cora');
    await user.click(await within(dialog).findByRole('option', { name: /Cora Commander/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Do not add Cora Commander' }));
    expect(within(dialog).queryByRole('list', { name: 'Users to add' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeDisabled();
    // Taken back, they are offered again.
    expect(within(dialog).getByRole('option', { name: /Cora Commander/ })).toBeInTheDocument();
  });

  it('removes a member from this team only', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/teams/${TEAM_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Remove Eddie Editor' }));
    expect(await screen.findByText('Eddie Editor removed from team successfully')).toBeInTheDocument();
    const params = sent('DELETE', 'team_members')[0]?.url.searchParams;
    expect(params?.get('person_id')).toBe(`eq.${EDDIE.id}`);
    expect(params?.get('team_id')).toBe(`eq.${TEAM_ID}`);
  });

  for (const role of ['responder', 'editor']) {
    it(`shows the members without add or remove to a ${role}, who may not grant approval rights`, async () => {
      roles = [role];
      renderAt(`/settings/teams/${TEAM_ID}`);
      expect(await screen.findByRole('list', { name: 'Members' })).toBeInTheDocument();
      await waitForRoles();
      expect(screen.queryByRole('button', { name: 'Add Members' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
    });
  }
});

describe('the team settings pages', () => {
  it('lists teams with their members and channels instead of the job columns a team never fills', async () => {
    renderAt('/settings/teams');
    const table = await screen.findByRole('table', { name: 'Teams' });
    expect(await within(table).findByText('Platform')).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Members', 'Channels', 'Source', 'Created', 'Updated', 'Created By']);
    const storage = within(table).getByText('Storage').closest('tr');
    if (storage === null) throw new Error('no Storage row');
    expect(storage).toHaveTextContent('1 member');
    expect(storage).toHaveTextContent('email (responders), jira (responders), default/storage-slack (notifications)');
    const platform = within(table).getByText('Platform').closest('tr');
    expect(platform).toHaveTextContent('3 members');
    expect(platform).toHaveTextContent('None');
  });

  it('creates a team with a name and spec only, as the teams table has no namespace or labels', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/teams');
    await user.click(await screen.findByRole('button', { name: 'Add Team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Team' });
    expect(within(dialog).queryByRole('textbox', { name: /Namespace/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Labels')).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Storage');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', 'teams')).toHaveLength(1));
    expect(sent('POST', 'teams')[0]?.body).toEqual({ name: 'Storage', spec: {}, created_by: PERSON_ID });
  });

  it('deletes a team from its Spec tab (the server only marks it deleted) and returns to the list', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/settings/teams/${TEAM_ID}`);
    await user.click(await screen.findByRole('tab', { name: 'Spec' }));
    const form = await screen.findByRole('form', { name: 'Team spec' });
    await user.click(within(form).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Team' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Platform deleted successfully')).toBeInTheDocument();
    expect(sent('DELETE', 'teams')[0]?.url.searchParams.get('id')).toBe(`eq.${TEAM_ID}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/teams'));
  });
});
