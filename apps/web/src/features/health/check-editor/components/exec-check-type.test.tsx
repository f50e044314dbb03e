import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { healthSettingsRoutes } from '../../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const CANARY_ID = '44444444-4444-4444-8444-444444444444';

const execCanary = {
  id: CANARY_ID,
  name: 'backups',
  namespace: 'default',
  description: null,
  icon: null,
  labels: {},
  schedule: '@every 5m',
  source: 'UI',
  agent_id: null,
  spec: { exec: [{ name: 'nightly', script: 'test -f /var/backups/last' }] },
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

let roles: string[] = ['editor'];

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/canaries_with_status', () => HttpResponse.json([])),
  http.get('*/api/db/people', () => HttpResponse.json([])),
  http.get('*/api/db/job_history', () => HttpResponse.json([])),
  http.get('*/api/canary/connections', () => HttpResponse.json({ data: [], total: 0 })),
  http.get('*/api/canary/canaries/:id', () => HttpResponse.json(execCanary)),
);

afterEach(() => {
  roles = ['editor'];
});

function renderAt(path: string) {
  renderRoutes(healthSettingsRoutes, path);
}

async function checkTypeOptions(): Promise<string[]> {
  const user = userEvent.setup({ delay: null });
  renderAt('/settings/canaries');
  // The settings routes load lazily; the first render of a file waits for their module.
  await user.click(await screen.findByRole('button', { name: 'Add Health Check' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Health Check' });
  await user.click(within(dialog).getByRole('combobox', { name: 'Check Type' }));
  await screen.findByRole('option', { name: 'HTTP' });
  return screen.getAllByRole('option').map((option) => option.textContent);
}

describe('the exec check type in the health-check form', () => {
  it('is not offered to an editor, who lacks the execute permission', async () => {
    const options = await checkTypeOptions();
    expect(options).toContain('TCP');
    expect(options).not.toContain('Exec');
  });

  it('is offered to an admin', async () => {
    roles = ['admin'];
    expect(await checkTypeOptions()).toContain('Exec');
  });

  it("shows an existing exec check to an editor as read-only, saying why", async () => {
    renderAt(`/settings/canaries/${CANARY_ID}`);
    const form = await screen.findByRole('form', { name: 'Health Check spec' });
    expect(await within(form).findByRole('note')).toHaveTextContent('only users with the execute permission (administrators) can change it');
    expect(within(form).getByRole('textbox', { name: /Script/ })).toBeDisabled();
  });
});
