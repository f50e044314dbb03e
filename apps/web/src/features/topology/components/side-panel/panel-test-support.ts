import type { TopologyComponent } from '@opsdeck/shared';

export const ROOT_ID = '20000000-0000-4000-8000-000000000001';
export const COMPONENT_ID = '20000000-0000-4000-8000-000000000002';
export const TOPOLOGY_ID = '30000000-0000-4000-8000-000000000001';

/** A component as GET /api/topology returns it: a child of the 'Shop' root unless overridden. */
export function topologyComponent(overrides: Partial<TopologyComponent> = {}): TopologyComponent {
  return {
    id: COMPONENT_ID,
    topology_id: TOPOLOGY_ID,
    parent_id: ROOT_ID,
    path: ROOT_ID,
    name: 'checkout',
    text: null,
    type: 'Service',
    icon: null,
    description: 'Takes the payments',
    owner: 'payments-team',
    lifecycle: 'production',
    namespace: 'shop',
    status: 'warning',
    status_reason: '1 check failing',
    agent_id: null,
    external_id: 'shop/checkout',
    is_leaf: false,
    hidden: false,
    labels: { tier: 'back' },
    properties: [],
    summary: { checks: { healthy: 1, unhealthy: 0, warning: 1, unknown: 0 }, incidents: {}, insights: {} },
    checks: [],
    teams: [],
    logs: false,
    cost_per_minute: null,
    cost_total_1d: 4.2,
    cost_total_7d: null,
    cost_total_30d: null,
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-06T10:00:00Z',
    deleted_at: null,
    ...overrides,
  };
}
