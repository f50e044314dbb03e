import { readFileSync } from 'node:fs';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

interface Fixtures {
  topologyId: string;
  componentName: string;
  teamName: string;
  teamId: string;
}

async function insert(api: APIRequestContext, table: string, body: Record<string, unknown>): Promise<string> {
  const response = await api.post(`/api/db/${table}?select=id`, { data: body, headers: { Prefer: 'return=representation' } });
  expect(response.ok(), `POST ${table}: ${response.status()} ${await response.text()}`).toBe(true);
  const rows = (await response.json()) as { id: string }[];
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`POST ${table} returned no row`);
  return id;
}

/** The demo data has no topology and no team with responder clients; the admin adds what this spec needs. */
async function createFixtures(api: APIRequestContext): Promise<Fixtures> {
  const suffix = Date.now().toString(36);
  const componentName = `e2e-payments-${suffix}`;
  const teamName = `E2E Incident Team ${suffix}`;
  const topologyId = await insert(api, 'topologies', { name: `e2e-incidents-${suffix}` });
  await insert(api, 'components', { name: componentName, topology_id: topologyId, status: 'healthy', type: 'service' });
  const teamId = await insert(api, 'teams', { name: teamName, spec: { responder_clients: { email: { defaults: { subject: 'Incident update' } } } } });
  return { topologyId, componentName, teamName, teamId };
}

async function removeFixtures(api: APIRequestContext, fixtures: Fixtures | undefined): Promise<void> {
  if (fixtures === undefined) return;
  await api.delete(`/api/db/topologies?id=eq.${fixtures.topologyId}`);
  await api.patch(`/api/db/teams?id=eq.${fixtures.teamId}`, { data: { deleted_at: new Date().toISOString() } });
}

function adminApi(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStateFor('admin'),
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
  });
}

/** The detail page of one incident, driven the way a responder uses it. */
class IncidentPage {
  constructor(private readonly page: Page) {}

  toast(text: string): Locator {
    return this.page.getByText(text, { exact: true }).first();
  }

  async choose(combobox: Locator, option: string): Promise<void> {
    await combobox.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  hypothesis(type: 'Root' | 'Factor' | 'Solution', title: string): Locator {
    return this.page.getByRole('article', { name: `${type} hypothesis: ${title}` });
  }

  async openTab(name: 'Comments' | 'Action Plan'): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }

  async openPanel(name: 'Details' | 'Definition of done' | 'Changelog'): Promise<void> {
    const button = this.page.getByRole('complementary', { name: 'Incident side panel' }).getByRole('button', { name, exact: true });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }

  async addChild(parent: Locator, kind: 'factor' | 'solution', title: string): Promise<void> {
    await parent.getByRole('button', { name: `Add ${kind}` }).click();
    await parent.getByRole('textbox', { name: `New ${kind} title` }).fill(title);
    await parent.getByRole('button', { name: 'Add', exact: true }).click();
  }

  async addEvidence(hypothesis: Locator, type: string, fill: (dialog: Locator) => Promise<void>): Promise<void> {
    await hypothesis.getByRole('button', { name: 'Add evidence' }).click();
    const dialog = this.page.getByRole('dialog', { name: /^Add Evidence/ });
    await dialog.getByRole('radio', { name: type, exact: true }).check();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await fill(dialog);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  async setStatus(status: string): Promise<void> {
    await this.openPanel('Details');
    await this.choose(this.page.getByRole('combobox', { name: 'Status', exact: true }), status);
  }

  async expectStatus(status: string): Promise<void> {
    await expect(this.page.getByTestId('incident-status')).toHaveText(status);
  }
}

test.describe('incidents', () => {
  let fixtures: Fixtures | undefined;
  const createdIncidents: string[] = [];

  test.beforeAll(async () => {
    const admin = await adminApi();
    fixtures = await createFixtures(admin);
    await admin.dispose();
  });

  test.afterAll(async () => {
    const admin = await adminApi();
    await removeFixtures(admin, fixtures);
    for (const id of createdIncidents) await admin.delete(`/api/db/incidents?id=eq.${id}`);
    await admin.dispose();
  });

  test.describe('as a responder', () => {
    test.use({ storageState: storageStateFor('responder') });

    test('a responder works an incident from creation to postmortem', async ({ page }) => {
      test.setTimeout(180_000);
      const incident = new IncidentPage(page);
      const title = `Checkout latency ${Date.now()}`;
      if (fixtures === undefined) throw new Error('the fixtures were not created');
      const { componentName, teamName } = fixtures;

      await page.goto('/incidents');
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Incidents' })).toBeVisible();
      await page.getByRole('button', { name: 'Create New Incident' }).click();
      const create = page.getByRole('dialog', { name: 'Create New Incident' });
      await expect(create.getByRole('combobox', { name: 'Severity' })).toHaveText('Low');
      await expect(create.getByRole('combobox', { name: 'Type' })).toHaveText('Availability');
      await create.getByRole('button', { name: 'Create' }).click();
      await expect(create.getByText('This field is required')).toBeVisible();
      await create.getByLabel('Title').fill(title);
      await create.getByRole('button', { name: 'Create' }).click();
      await expect(page).toHaveURL(/\/incidents\/[0-9a-f-]{36}$/);
      createdIncidents.push(new URL(page.url()).pathname.split('/').at(-1) ?? '');
      await expect(page.getByRole('textbox', { name: 'Incident title' })).toHaveValue(title);
      await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(/INC-\d+/);

      // Hypotheses: the root one came with the incident; a factor under it and a solution under that.
      await incident.openTab('Action Plan');
      const root = incident.hypothesis('Root', title);
      await expect(root).toBeVisible();
      await incident.addChild(root, 'factor', 'Connection pool exhausted');
      const factor = incident.hypothesis('Factor', 'Connection pool exhausted');
      await expect(factor).toBeVisible();
      await incident.addChild(factor, 'solution', 'Raise the pool size');
      await expect(incident.hypothesis('Solution', 'Raise the pool size')).toBeVisible();

      // Evidence: a topology component found through the resource search, and a comment.
      await incident.addEvidence(root, 'Component', async (dialog) => {
        await dialog.getByRole('searchbox').fill(componentName);
        await dialog.getByRole('radio', { name: new RegExp(componentName) }).check();
      });
      await expect(root.getByTestId('evidence-item').filter({ hasText: componentName })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Components' }).getByRole('link', { name: componentName })).toBeVisible();
      await incident.addEvidence(factor, 'Comment', async (dialog) => {
        await dialog.getByLabel('Comment').fill('Pool at 100% since 10:02');
      });
      await expect(factor.getByTestId('evidence-item').filter({ hasText: 'Pool at 100% since 10:02' })).toBeVisible();

      // A comment on the factor, sent with Enter.
      await incident.openTab('Comments');
      await incident.choose(page.getByRole('combobox', { name: 'Hypothesis' }), 'Connection pool exhausted');
      await page.getByRole('textbox', { name: 'Comment' }).fill('Rolling back the pool change');
      await page.getByRole('textbox', { name: 'Comment' }).press('Enter');
      await expect(page.getByRole('list', { name: 'Timeline' }).getByText('Rolling back the pool change')).toBeVisible();

      // Definition of done: a manual item, then the component with a script (a broken one is refused first).
      await incident.openPanel('Definition of done');
      const panel = page.getByRole('complementary', { name: 'Incident side panel' });
      await expect(panel.getByText('No Evidence')).toBeVisible();
      await panel.getByRole('button', { name: 'Add definition of done' }).click();
      let dod = page.getByRole('dialog', { name: 'Add to definition of done' });
      await dod.getByRole('radio', { name: 'Manual' }).click();
      await expect(dod.getByRole('button', { name: 'Add' })).toBeDisabled();
      await dod.getByLabel('What must be true for the incident to be done?').fill('Checkout p95 under 300 ms for an hour');
      await dod.getByRole('button', { name: 'Add' }).click();
      await expect(dod).toBeHidden();
      await expect(panel.getByRole('list', { name: 'Definition of done' })).toContainText('Checkout p95 under 300 ms for an hour');

      await panel.getByRole('button', { name: 'Add definition of done' }).click();
      dod = page.getByRole('dialog', { name: 'Add to definition of done' });
      await dod.getByRole('radio', { name: new RegExp(componentName) }).check();
      await dod.getByRole('button', { name: 'Next' }).click();
      await dod.getByLabel('Script (CEL, optional)').fill('status ==');
      await dod.getByRole('button', { name: 'Add' }).click();
      await expect(dod.getByRole('alert')).toContainText('Invalid definition of done script');
      await dod.getByRole('button', { name: 'Component is Health' }).click();
      await expect(dod.getByLabel('Script (CEL, optional)')).toHaveValue('status == healthy');
      await dod.getByRole('button', { name: 'Add' }).click();
      await expect(dod).toBeHidden();
      await expect(panel.getByRole('list', { name: 'Definition of done' }).getByTestId('evidence-item')).toHaveCount(2);
      await incident.openTab('Action Plan');
      await expect(root).toHaveAttribute('data-definition-of-done', 'true');

      // Status: investigating, mitigated (adding the comment evidence through the dialog), resolved, closed, open.
      await incident.setStatus('Investigating');
      await expect(incident.toast('Incident status updated successfully')).toBeVisible();
      await incident.expectStatus('Investigating');

      await incident.setStatus('Mitigated');
      const ask = page.getByRole('dialog', { name: 'Add contributing factors to definition of done' });
      await ask.getByRole('button', { name: 'Add' }).click();
      await expect(incident.toast('Please select atleast one evidence')).toBeVisible();
      await ask.getByRole('checkbox', { name: /Pool at 100% since 10:02/ }).check();
      await ask.getByRole('button', { name: 'Add' }).click();
      await expect(ask).toBeHidden();
      await incident.expectStatus('Mitigated');
      await expect(factor).toHaveAttribute('data-definition-of-done', 'true');

      await incident.setStatus('Resolved');
      await expect(ask).toContainText('There are no evidences which are not part of definition of done');
      await ask.getByRole('button', { name: 'Skip' }).click();
      await incident.expectStatus('Resolved');

      await incident.setStatus('Closed');
      await incident.expectStatus('Closed');
      await page.getByRole('button', { name: 'Reopen', exact: true }).click();
      await incident.expectStatus('Open');
      await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeVisible();

      // Responders: a person directly; a team's email client sends mail through the team's connection, which only a
      // commander or above may set up (#31), so the server refuses it to a responder and says so.
      await incident.openPanel('Details');
      await panel.getByRole('button', { name: 'Add responder' }).click();
      let wizard = page.getByRole('dialog', { name: /^Add Responder/ });
      await wizard.getByRole('radio', { name: 'Person' }).click();
      await incident.choose(wizard.getByRole('combobox', { name: 'Person' }), 'Cora Commander');
      await wizard.getByRole('button', { name: 'Save' }).click();
      await expect(incident.toast('Responder added successfully')).toBeVisible();
      const responders = panel.getByRole('list', { name: 'Responders' });
      await expect(responders).toContainText('Cora Commander');

      await panel.getByRole('button', { name: 'Add responder' }).click();
      wizard = page.getByRole('dialog', { name: /^Add Responder/ });
      await expect(wizard.getByRole('button', { name: 'Next' })).toBeDisabled();
      await incident.choose(wizard.getByRole('combobox', { name: 'Team' }), teamName);
      await wizard.getByRole('button', { name: 'Next' }).click();
      await wizard.getByRole('radio', { name: 'Email' }).check();
      await wizard.getByRole('button', { name: 'Next' }).click();
      await expect(wizard.getByLabel('Subject')).toHaveValue('Incident update');
      await wizard.getByLabel('To').fill('oncall@example.com');
      await wizard.getByRole('button', { name: 'Save' }).click();
      await expect(wizard.getByText('Please provide valid value')).toBeVisible();
      await wizard.getByLabel('Body').fill('Checkout is slow; please look at the payments pool.');
      await wizard.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(/email responders needs the commander role or above/).first()).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(wizard).toBeHidden();
      await expect(responders).not.toContainText(teamName);

      await incident.openPanel('Changelog');
      await expect(panel.getByRole('list', { name: 'Changelog' })).toContainText('Status changed from resolved to closed');

      // The postmortem downloads as Markdown named after the display id.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^INC-\d+-postmortem\.md$/);
      const path = await file.path();
      expect(readFileSync(path, 'utf8')).toContain(title);
    });

    test('a responder links a failing check to a new incident, finds it by awkward text and deletes a branch of it', async ({ page }) => {
      test.setTimeout(120_000);
      const incident = new IncidentPage(page);
      const title = `Backups 100% failed (nightly), ${Date.now()}`;

      // Link to Incident from the health check modal, composed there by the app.
      await page.goto('/health');
      await page.getByRole('table', { name: 'Health checks' }).getByRole('row').filter({ hasText: 'backup/nightly-job' }).click();
      const check = page.getByRole('dialog', { name: 'backup/nightly-job' });
      await check.getByRole('button', { name: 'Attach as Evidence' }).click();
      const link = page.getByRole('dialog', { name: 'Link to Incident' });
      await incident.choose(link.getByRole('combobox', { name: /Incident/ }), 'Create new incident');
      await link.getByRole('textbox', { name: /Incident title/ }).fill(title);
      await link.getByRole('button', { name: 'Link' }).click();
      await expect(link).toBeHidden();
      // The toast names the new incident; the check modal is still open over the page, so the link is followed by hand.
      const href = await page.getByRole('link', { name: /^INC-\d+$/ }).getAttribute('href');
      expect(href).toMatch(/^\/incidents\/[0-9a-f-]{36}$/);
      createdIncidents.push(href?.split('/').at(-1) ?? '');
      await page.goto(href ?? '/incidents');
      await incident.openTab('Action Plan');
      const root = incident.hypothesis('Root', title);
      await expect(root.getByTestId('evidence-item').filter({ hasText: 'backup/nightly-job' })).toBeVisible();

      // Deleting a factor takes its solution, evidence and comments with it, and leaves the root as it was.
      await incident.addChild(root, 'factor', 'Disk full');
      const factor = incident.hypothesis('Factor', 'Disk full');
      await incident.addChild(factor, 'solution', 'Rotate the logs');
      await incident.addEvidence(factor, 'Comment', async (dialog) => {
        await dialog.getByLabel('Comment').fill('df shows 100%');
      });
      await factor.getByRole('button', { name: 'Delete Disk full' }).click();
      await page.getByRole('dialog', { name: 'Delete hypothesis' }).getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(factor).toHaveCount(0);
      await expect(incident.hypothesis('Solution', 'Rotate the logs')).toHaveCount(0);
      await expect(root.getByTestId('evidence-item').filter({ hasText: 'backup/nightly-job' })).toBeVisible();

      // The list search takes %, commas and parentheses literally.
      await page.goto('/incidents');
      const rows = page.getByRole('table', { name: 'Incidents' }).getByRole('row');
      await page.getByRole('searchbox', { name: 'Search for incident' }).fill('100% failed (nightly),');
      await expect(rows.filter({ hasText: title })).toBeVisible();
      await page.getByRole('searchbox', { name: 'Search for incident' }).fill('100_ failed (nightly)');
      await expect(rows.filter({ hasText: title })).toHaveCount(0);
    });
  });

  test.describe('as an admin on a 1024 px screen', () => {
    test.use({ storageState: storageStateFor('admin'), viewport: { width: 1024, height: 800 } });

    test("the demo's INC-1 opens by its display id, shows its log lines and its definition of done whole", async ({ page }) => {
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto('/incidents/INC-1');
      await expect(page.getByRole('textbox', { name: 'Incident title' })).toHaveValue('Checkout latency above SLO');
      await expect(page.getByText('Sorry.. there was an error')).toHaveCount(0);

      const lines = page.getByRole('list', { name: 'Evidence lines' }).first();
      await expect(lines).toContainText('timeout acquiring connection after 2000ms');
      await expect(lines.getByText('level=error').first()).toBeVisible();

      await page.getByRole('button', { name: 'Definition of done', exact: true }).click();
      const criterion = page.getByRole('list', { name: 'Definition of done' }).getByText('Index created and query plan verified', { exact: true });
      await expect(criterion).toBeVisible();
      const shape = await criterion.evaluate((element) => ({ clipped: element.scrollWidth > element.clientWidth, width: element.getBoundingClientRect().width }));
      expect(shape.clipped).toBe(false);
      expect(shape.width).toBeGreaterThanOrEqual(160);
      expect(pageErrors).toEqual([]);
    });
  });

  test.describe('on a 390 px phone', () => {
    const longTitle = 'Nightly backup failing (write timeout on the replica volume)';

    /** The title is shown whole: nothing cut at the right edge, and more than one line tall. */
    async function expectWholeTitle(title: Locator): Promise<void> {
      const shape = await title.evaluate((element) => ({
        clipped: element.scrollWidth > element.clientWidth + 1,
        lines: element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight),
      }));
      expect(shape.clipped).toBe(false);
      expect(shape.lines).toBeGreaterThan(1.5);
    }

    for (const role of ['responder', 'viewer'] as const) {
      test(`a ${role} reads a long incident title whole, wrapped rather than cut`, async ({ browser }) => {
        const admin = await adminApi();
        const incidentId = await insert(admin, 'incidents', { title: longTitle, severity: 'high', type: 'availability', status: 'open' });
        createdIncidents.push(incidentId);
        await admin.dispose();
        const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: storageStateFor(role), viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await page.goto(`/incidents/${incidentId}`);
        const title = role === 'viewer' ? page.getByRole('heading', { name: longTitle }) : page.getByRole('textbox', { name: 'Incident title' });
        await expect(title).toBeVisible();
        if (role === 'responder') await expect(title).toHaveValue(longTitle);
        await expectWholeTitle(title);
        await context.close();
      });
    }
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('a viewer reads the incident but cannot change it, and the server refuses too', async ({ page }) => {
      const admin = await adminApi();
      const incidentTitle = `Seen by a viewer ${Date.now()}`;
      const incidentId = await insert(admin, 'incidents', { title: incidentTitle, severity: 'high', type: 'availability', status: 'open' });
      createdIncidents.push(incidentId);
      await insert(admin, 'hypotheses', { incident_id: incidentId, title: incidentTitle, type: 'root', status: 'possible' });
      await admin.dispose();

      await page.goto(`/incidents/${incidentId}`);
      await expect(page.getByRole('heading', { name: incidentTitle })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Incident title' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Close', exact: true })).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: 'Comment' })).toHaveCount(0);
      await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Add responder' })).toHaveCount(0);

      const refused = await page.request.patch(`/api/db/incidents?id=eq.${incidentId}`, { data: { title: 'Changed by a viewer' } });
      expect(refused.status()).toBe(403);
      const comment = await page.request.post('/api/db/comments', { data: { incident_id: incidentId, comment: 'viewer comment' } });
      expect(comment.status()).toBe(403);
    });
  });
});
