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

const KEPT_ID = '66666666-6666-4666-8666-666666666666';
const TOPOLOGY_ID = '77777777-7777-4777-8777-777777777777';
const kept = { ...canary, id: KEPT_ID, name: 'shop-storefront', source: `topology:${TOPOLOGY_ID}/spec.components[0].checks[0]` };

setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/people', () => HttpResponse.json([])),
  http.get('*/api/db/job_history', () => HttpResponse.json([])),
  http.get('*/api/canary/connections', () => HttpResponse.json({ data: [], total: 0 })),
  http.get('*/api/canary/canaries/:id', ({ params }) => HttpResponse.json(params.id === KEPT_ID ? kept : canary)),
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

describe('a canary a topology keeps for an inline check', () => {
  it('is shown read-only with a link to the topology whose spec holds it', async () => {
    renderRoutes(healthSettingsRoutes, `/settings/canaries/${KEPT_ID}`);
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('kept by an inline check of a topology');
    expect(within(note).getByRole('link', { name: "topology's spec" })).toHaveAttribute('href', `/settings/topologies/${TOPOLOGY_ID}`);
    const form = await screen.findByRole('form', { name: 'Health Check spec' });
    expect(within(form).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });
});
