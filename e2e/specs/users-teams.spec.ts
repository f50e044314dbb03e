import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectSidebar } from '../pages/sidebar-snapshot';
import { EXPECTED_SIDEBAR } from '../support/expected-navigation';
import { mailCount, waitForMail } from '../support/mailbox';
import { RUN_ID, storageStateFor } from '../support/roles';

/**
 * The Users screen and the Teams tab of spec 002 §2.2 end to end: an admin invites a person (who receives a working
 * invitation link), changes their role and deletes them; an admin creates a team, adds and removes a member and
 * deletes the team; a viewer has no Settings and the server refuses their writes. Everything made here is deleted
 * again, by the UI as the last step, or by the clean-up when a step failed.
 */

const unique = `${RUN_ID}-${Date.now()}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
const invitee = { first: 'E2E', last: `Invitee ${unique.slice(-12)}`, email: `e2e-invite-${unique}@example.com` };
const inviteeName = `${invitee.first} ${invitee.last}`;
const teamName = `e2e-team-${unique}`;
const LINK = /https?:\/\/\S+/;

function toast(page: Page, text: string) {
  return page.getByText(text, { exact: true });
}

async function choose(page: Page, field: RegExp | string, option: RegExp | string): Promise<void> {
  await page.getByRole('dialog').getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Types into a dialog's user search, which asks the server as it goes, and picks the match. */
async function searchAndPick(page: Page, field: RegExp | string, text: string, option: RegExp | string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: field }).fill(text);
  await dialog.getByRole('listbox', { name: 'Matching users' }).getByRole('option', { name: option }).click();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Removes the invited user through the API, when a failed step left them behind. */
async function deleteInvitee(api: APIRequestContext): Promise<void> {
  const found = await api.get(`/api/db/identities_summary?select=id&email=eq.${encodeURIComponent(invitee.email)}`);
  expect(found.ok(), `GET the invitee: ${found.status()}`).toBe(true);
  for (const row of (await found.json()) as Array<{ id: string }>) {
    const removed = await api.delete(`/api/db/identities?id=eq.${row.id}`);
    expect(removed.ok(), `DELETE the invitee: ${removed.status()} ${await removed.text()}`).toBe(true);
  }
}

/** Deletes (marks deleted) the team made here, when a failed step left it behind. */
async function deleteTeam(api: APIRequestContext): Promise<void> {
  const removed = await api.delete(`/api/db/teams?name=eq.${encodeURIComponent(teamName)}`);
  expect(removed.ok(), `DELETE the team: ${removed.status()} ${await removed.text()}`).toBe(true);
}

test.describe('users', () => {
  test.use({ storageState: storageStateFor('admin') });
  test.describe.configure({ timeout: 90_000 });

  test.afterAll(async ({ request }) => {
    await deleteInvitee(request);
  });

  test('an admin invites a user, whose mailed link signs them in, then changes their role and deletes them', async ({ page, browser }) => {
    await page.goto('/settings/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(page).toHaveTitle('Users | Opsdeck');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('row').filter({ hasText: 'admin@opsdeck.local' })).toBeVisible();

    const since = mailCount();
    await page.getByRole('button', { name: 'Invite User' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite User' });
    await invite.getByRole('button', { name: 'Invite' }).click();
    await expect(invite.getByText('Please provide valid first name')).toBeVisible();
    await expect(invite.getByText('Please select any role')).toBeVisible();
    await invite.getByRole('textbox', { name: /First Name/ }).fill(invitee.first);
    await invite.getByRole('textbox', { name: /Last Name/ }).fill(invitee.last);
    await invite.getByRole('textbox', { name: /Email/ }).fill(invitee.email);
    await choose(page, /Role/, 'Responder');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await expect(toast(page, `${inviteeName} invited successfully`)).toBeVisible();
    // The list is paged by the server; searching for the address shows the new user whatever page they sort onto.
    await page.getByRole('searchbox', { name: 'Search users by name or email' }).fill(invitee.email);
    await expect(page).toHaveURL(new RegExp(`[?&]search=${escapeRegExp(encodeURIComponent(invitee.email))}`));
    await expect(table.getByRole('row').filter({ hasText: 'admin@opsdeck.local' })).toHaveCount(0);
    const row = table.getByRole('row').filter({ hasText: invitee.email });
    await expect(row).toContainText('responder');
    // Invited until the link is used to set a password (#34 item 19).
    await expect(row).toContainText('Invited');

    // The invitation signs the person in, in a browser of their own, and takes them to choose a password.
    const mail = await waitForMail(invitee.email, since);
    const link = LINK.exec(mail.text)?.[0];
    expect(link, `a link in: ${mail.text}`).toBeDefined();
    const theirs = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const theirPage = await theirs.newPage();
      await theirPage.goto(link ?? '');
      await expect(theirPage).toHaveURL(/\/profile-settings/);
    } finally {
      await theirs.close();
    }

    await page.getByRole('button', { name: 'Add Role to User' }).click();
    const update = page.getByRole('dialog', { name: 'Update User Role' });
    await searchAndPick(page, /User/, invitee.email, new RegExp(escapeRegExp(invitee.email)));
    await choose(page, /Role/, 'Editor');
    await update.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, `${inviteeName} role updated successfully`)).toBeVisible();
    await expect(row).toContainText('editor');
    await expect(row).not.toContainText('responder');

    await row.getByRole('button', { name: `Delete ${inviteeName}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User ?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'user deleted successfully')).toBeVisible();
    // The search now finds no one, and the empty table says what it searched for.
    await expect(table.getByText(`No users match “${invitee.email}”`)).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: inviteeName })).toHaveCount(0);
  });
});

test.describe('teams', () => {
  test.use({ storageState: storageStateFor('admin') });
  test.describe.configure({ timeout: 90_000 });

  test.afterAll(async ({ request }) => {
    await deleteTeam(request);
  });

  test('an admin creates a team, adds and removes a member on its Manage Team tab, and deletes the team', async ({ page }) => {
    await page.goto('/settings/teams');
    await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Team' }).click();
    const add = page.getByRole('dialog', { name: 'Add Team' });
    await add.getByRole('textbox', { name: /Name/ }).fill(teamName);
    await add.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toast(page, `${teamName} created successfully`)).toBeVisible();

    await page.getByRole('table', { name: 'Teams' }).getByRole('row').filter({ hasText: teamName }).click();
    await expect(page.getByRole('heading', { level: 1, name: teamName })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Manage Team' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText("You haven't added any team members to the team yet.")).toBeVisible();

    await page.getByRole('button', { name: 'Add Members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Team Members' });
    await searchAndPick(page, 'Users', 'Cora', /Cora Commander/);
    await searchAndPick(page, 'Users', 'Rey', /Rey Responder/);
    await expect(dialog.getByRole('list', { name: 'Users to add' }).getByRole('listitem')).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(toast(page, 'Cora Commander, Rey Responder added to the team successfully')).toBeVisible();
    const members = page.getByRole('list', { name: 'Members' });
    await expect(members.getByRole('listitem')).toHaveCount(2);

    await members.getByRole('button', { name: 'Remove Rey Responder' }).click();
    await expect(toast(page, 'Rey Responder removed from team successfully')).toBeVisible();
    await expect(members.getByRole('listitem')).toHaveCount(1);
    await expect(members).toContainText('Cora Commander');

    await page.getByRole('tab', { name: 'Spec' }).click();
    await page.getByRole('form', { name: 'Team spec' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete Team' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toast(page, `${teamName} deleted successfully`)).toBeVisible();
    await expect(page).toHaveURL(/\/settings\/teams$/);
    await expect(page.getByRole('table', { name: 'Teams' }).getByRole('row').filter({ hasText: teamName })).toHaveCount(0);
  });
});

test.describe('a viewer', () => {
  test.use({ storageState: storageStateFor('viewer') });

  test('sees no Settings, may not open Users, and the server refuses their writes', async ({ page, request }) => {
    await page.goto('/');
    await expectSidebar(page, EXPECTED_SIDEBAR.viewer);
    await page.goto('/settings/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Unauthorized' })).toBeVisible();

    const teams = await request.get('/api/db/teams?select=id&deleted_at=is.null&limit=1');
    expect(teams.ok()).toBe(true);
    const [team] = (await teams.json()) as Array<{ id: string }>;
    const add = await request.post('/api/db/team_members', { data: [{ team_id: team?.id, person_id: team?.id }] });
    expect(add.status()).toBe(403);
    const removeTeam = await request.delete(`/api/db/teams?id=eq.${team?.id ?? ''}`);
    expect(removeTeam.status()).toBe(403);
    const invite = await request.post('/api/auth/invite_user', { data: { firstName: 'No', lastName: 'Way', email: `e2e-viewer-${unique}@example.com`, role: 'admin' } });
    expect(invite.status()).toBe(403);
    expect(await invite.json()).toMatchObject({ code: 'OD403' });
  });
});
