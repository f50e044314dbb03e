import type { TopologyComponent, TopologyComponentRow, TopologyResponse } from './api/types';

/** A component as GET /api/topology lists it inside a card: the row fields only, as the server sends them. */
export function makeRow(overrides: Partial<TopologyComponentRow> & Pick<TopologyComponentRow, 'id' | 'name'>): TopologyComponentRow {
  return {
    parent_id: null,
    path: '',
    icon: null,
    type: null,
    status: 'healthy',
    status_reason: null,
    hidden: false,
    is_leaf: true,
    ...overrides,
  };
}

/** A component as GET /api/topology returns it whole (a card, or the component asked for), with empty relations unless given. */
export function makeComponent(overrides: Partial<TopologyComponent> & Pick<TopologyComponent, 'id' | 'name'>): TopologyComponent {
  return {
    topology_id: 't0000000-0000-4000-8000-000000000001',
    parent_id: null,
    path: '',
    text: null,
    type: null,
    icon: null,
    description: null,
    owner: null,
    lifecycle: null,
    namespace: 'default',
    status: 'healthy',
    status_reason: null,
    agent_id: null,
    external_id: null,
    is_leaf: false,
    hidden: false,
    labels: {},
    properties: [],
    summary: { checks: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 }, incidents: {}, insights: {} },
    checks: [],
    teams: [],
    logs: false,
    cost_per_minute: null,
    cost_total_1d: null,
    cost_total_7d: null,
    cost_total_30d: null,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    deleted_at: null,
    ...overrides,
  };
}

export function makeResponse(components: TopologyComponent[], overrides: Partial<TopologyResponse> = {}): TopologyResponse {
  return { components, healthStatuses: ['healthy', 'unhealthy', 'warning'], tags: {}, teams: [], types: [], ...overrides };
}
