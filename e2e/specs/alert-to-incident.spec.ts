import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { storageStateFor } from '../support/roles';

/** The admin's signed-in session, for the API calls around the UI steps. */
function adminApi(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStateFor('admin'),
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
  });
}

const suffix = Date.now().toString(36);
const ALERT_NAME = `E2ECheckoutErrors${suffix}`;
const FINGERPRINT = `e2e-alert-to-incident-${suffix}`;

/** One Alertmanager webhook call (payload version 4) with one alert in the given state. */
function alertmanagerPayload(status: 'firing' | 'resolved'): Record<string, unknown> {
  const labels = { alertname: ALERT_NAME, severity: 'warning', service: 'checkout', e2e_run: suffix };
  return {
    version: '4',
    groupKey: `{}:{alertname="${ALERT_NAME}"}`,
    truncatedAlerts: 0,
    status,
    receiver: 'opsdeck',
    groupLabels: { alertname: ALERT_NAME },
    commonLabels: labels,
    commonAnnotations: { summary: 'Checkout answers 5xx to 7% of requests' },
    externalURL: 'http://alertmanager.example.com:9093',
    alerts: [
      {
        status,
        labels,
        annotations: { summary: 'Checkout answers 5xx to 7% of requests' },
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: status === 'firing' ? '0001-01-01T00:00:00Z' : new Date().toISOString(),
        generatorURL: 'http://prometheus.example.com:9090/graph?g0.expr=checkout_errors',
        fingerprint: FINGERPRINT,
      },
    ],
  };
}

test.describe('an Alertmanager alert opens an incident', () => {
  test.use({ storageState: storageStateFor('responder') });

  let admin: APIRequestContext;
  let ruleId = '';
  let incidentId = '';

  test.beforeAll(async () => {
    admin = await adminApi();
    // A rule of this run only (the demo's critical-alert rule ignores this warning), paging the demo responder.
    const rule = await admin.post('/api/db/incident_rules?select=id', {
      headers: { Prefer: 'return=representation' },
      data: {
        name: `e2e alert rule ${suffix}`,
        spec: {
          sources: ['alert'],
          filter: `alert.labels.e2e_run == '${suffix}'`,
          incident: { title: '{{ alert.name }} is firing', type: 'availability', severity: 'high', description: '{{ alert.annotations.summary }}' },
          groupBy: ['alert.labels.alertname'],
          responders: { people: ['responder@opsdeck.local'] },
        },
      },
    });
    expect(rule.status(), await rule.text()).toBe(201);
    ruleId = ((await rule.json()) as Array<{ id: string }>)[0]?.id ?? '';
  });

  test.afterAll(async () => {
    if (incidentId !== '') await admin.delete(`/api/db/incidents?id=eq.${incidentId}`);
    if (ruleId !== '') await admin.delete(`/api/db/incident_rules?id=eq.${ruleId}`);
    await admin.delete(`/api/db/alerts?fingerprint=eq.${FINGERPRINT}`);
    await admin.dispose();
  });

  test('the alert becomes evidence of a new incident, which a responder resolves', async ({ page }) => {
    const posted = await admin.post('/api/alerts/alertmanager', { data: alertmanagerPayload('firing') });
    expect(posted.status(), await posted.text()).toBe(202);
    expect(await posted.json()).toEqual({ accepted: 1, firing: 1, resolved: 0 });

    // The rules engine runs in the server's worker; the incident appears within moments.
    await expect
      .poll(
        async () => {
          const found = await admin.get(`/api/db/incidents?select=id&title=eq.${encodeURIComponent(`${ALERT_NAME} is firing`)}`);
          const rows = (await found.json()) as Array<{ id: string }>;
          incidentId = rows[0]?.id ?? '';
          return rows.length;
        },
        { timeout: 15_000 },
      )
      .toBe(1);

    await page.goto(`/incidents/${incidentId}`);
    await expect(page.getByRole('textbox', { name: 'Incident title' })).toHaveValue(`${ALERT_NAME} is firing`);
    const evidence = page.getByTestId('evidence-item').filter({ hasText: ALERT_NAME });
    await expect(evidence).toContainText('Alert');
    await expect(evidence.getByTestId('alert-evidence')).toContainText('Firing');
    await expect(evidence.getByRole('list', { name: `Labels of ${ALERT_NAME}` })).toContainText('service=checkout');
    await expect(evidence.getByRole('link', { name: 'Source' })).toHaveAttribute('href', 'http://prometheus.example.com:9090/graph?g0.expr=checkout_errors');

    // The responder the rule added resolves it from the Details panel.
    const panel = page.getByRole('complementary', { name: 'Incident side panel' });
    const details = panel.getByRole('button', { name: 'Details', exact: true });
    if ((await details.getAttribute('aria-expanded')) !== 'true') await details.click();
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Resolved', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Add contributing factors to definition of done' });
    await ask.getByRole('button', { name: 'Skip' }).click();
    await expect(page.getByTestId('incident-status')).toHaveText('Resolved');

    const stored = await admin.get(`/api/db/incidents?select=status&id=eq.${incidentId}`);
    expect(await stored.json()).toEqual([{ status: 'resolved' }]);
    const responders = await admin.get(`/api/db/responders?select=person:people!responders_person_id_fkey(email)&incident_id=eq.${incidentId}`);
    expect(await responders.json()).toEqual([{ person: { email: 'responder@opsdeck.local' } }]);
  });
});
