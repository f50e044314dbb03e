import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { renderWithProviders } from '@/test/render';
import type { CheckDetail, CheckSummary, HealthSummary } from './api/types';

/** A summary check; its health follows its status unless given. */
export function makeCheck(overrides: Partial<CheckSummary> & Pick<CheckSummary, 'id' | 'name'>): CheckSummary {
  const status = overrides.status === undefined ? 'healthy' : overrides.status;
  return {
    canary_id: 'c0000000-0000-4000-8000-000000000001',
    canary_name: 'opsdeck-self',
    namespace: 'default',
    agent_id: null,
    agent_name: null,
    type: 'http',
    icon: null,
    endpoint: null,
    description: null,
    owner: null,
    labels: {},
    status,
    health: status ?? 'unknown',
    severity: 'info',
    uptime: { passed: 99, failed: 1 },
    latency: { p95: 120, p97: 150, p99: 300 },
    last_runtime: new Date(Date.now() - 60_000).toISOString(),
    next_runtime: new Date(Date.now() + 60_000).toISOString(),
    last_transition_time: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    created_at: '2024-01-01T00:00:00Z',
    deleted_at: null,
    ...overrides,
  };
}

export function makeSummary(checks: CheckSummary[], overrides: Partial<HealthSummary> = {}): HealthSummary {
  const count = (health: CheckSummary['health']): number => checks.filter((check) => check.health === health).length;
  return {
    checks_summary: checks,
    totalEntries: checks.length,
    counts: { total: checks.length, healthy: count('healthy'), unhealthy: count('unhealthy'), warning: count('warning'), unknown: count('unknown') },
    tabs: [{ key: 'All', count: checks.length }],
    groups: [],
    labels: {},
    timeRange: { key: '1d', since: '2024-04-30T10:00:00.000Z', source: '1h', asOf: '2024-05-01T10:00:00.000Z' },
    ...overrides,
  };
}

/** The detail of a check, its series split in two minutes whose runs add up to the check's uptime, as the server's do. */
export function makeDetail(check: CheckSummary, overrides: Partial<CheckDetail> = {}): CheckDetail {
  const total = check.uptime.passed + check.uptime.failed;
  const firstPassed = Math.ceil(check.uptime.passed / 2);
  const firstFailed = Math.floor(check.uptime.failed / 2);
  return {
    check: { ...check, spec: { url: 'http://example' }, spec_yaml: `${check.type}:\n  - url: http://example\n` },
    uptime: { ...check.uptime, percentage: total === 0 ? null : (check.uptime.passed / total) * 100 },
    latency: check.latency,
    series: {
      bucket: '1m',
      points: [
        { time: '2024-05-01T10:00:00Z', passed: firstPassed, failed: firstFailed, duration_avg: 100, duration_max: 140 },
        { time: '2024-05-01T10:01:00Z', passed: check.uptime.passed - firstPassed, failed: check.uptime.failed - firstFailed, duration_avg: 120, duration_max: 180 },
      ],
    },
    relationships: { configs: [], components: [] },
    timeRange: { key: '1d', since: '2024-04-30T10:00:00.000Z', source: '1h' },
    ...overrides,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders `element` at `/health…` with a fresh query client, the toaster and a probe showing the current URL. */
export function renderAtHealth(element: ReactNode, url = '/health'): QueryClient {
  return renderWithProviders(
    <Routes>
      <Route
        path="*"
        element={
          <>
            {element}
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { path: url, toaster: true },
  ).queryClient;
}

export function currentSearch(probe: HTMLElement): URLSearchParams {
  return new URLSearchParams((probe.textContent ?? '').split('?')[1] ?? '');
}
