import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { healthSettingsRoutes } from '../../routes';

const CANARY_ID = '55555555-5555-4555-8555-555555555555';

const canary = {
  id: CANARY_ID,
  name: 'applied-web',
  namespace: 'shop',
  description: null,
  icon: null,
  labels: { team: 'web' },
  schedule: '@every 5m',
  source: 'gitops:/srv/gitops/shop',
  agent_id: null,
  spec: { schedule: '@every 5m', http: [{ name: 'home', url: 'https://example.com' }] },
  created_by: null,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
};

setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/people', () => HttpResponse.json([])),
  http.get('*/api/db/job_history', () => HttpResponse.json([])),
  http.get('*/api/canary/connections', () => HttpResponse.json({ data: [], total: 0 })),
  http.get('*/api/canary/canaries/:id', () => HttpResponse.json(canary)),
);

describe('a canary applied from a manifest', () => {
  it('is shown read-only, even to an admin, with the folder it came from and no Update or Delete', async () => {
    renderRoutes(healthSettingsRoutes, `/settings/canaries/${CANARY_ID}`);
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('applied from the GitOps folder /srv/gitops/shop');
    const form = await screen.findByRole('form', { name: 'Health Check spec' });
    expect(within(form).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
