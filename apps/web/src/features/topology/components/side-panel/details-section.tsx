import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TopologyComponent } from '@opsdeck/shared';
import { HealthDot } from '@/components/status/health-dot';
import { usePermissions } from '@/lib/auth/permissions';
import { usePathNamesQuery } from '../../api/get-path-names';
import { RelativeTime } from './relative-time';
import { SECTION_LINK_CLASS } from './section-query';

const COSTS = [
  ['Cost per minute', 'cost_per_minute'],
  ['Cost (1d)', 'cost_total_1d'],
  ['Cost (7d)', 'cost_total_7d'],
  ['Cost (30d)', 'cost_total_30d'],
] as const;
const COST_TWO_DECIMALS_BELOW = 10;

const PER_MINUTE_DECIMALS = 4;

/** As the catalog shows costs (under 10 with 2 decimals, larger ones whole); a rate per minute keeps 4, being small. */
function formatCost(value: number, field: (typeof COSTS)[number][1]): string {
  const decimals = field === 'cost_per_minute' ? PER_MINUTE_DECIMALS : Math.abs(value) < COST_TWO_DECIMALS_BELOW ? 2 : 0;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}

function Labels({ labels }: { labels: Record<string, string> }) {
  const entries = Object.entries(labels);
  if (entries.length === 0) return <>—</>;
  return (
    <span className="flex flex-wrap gap-1">
      {entries.map(([key, value]) => (
        <span key={key} className="rounded bg-gray-100 px-1 text-xs break-all text-gray-700">
          {key}={value}
        </span>
      ))}
    </span>
  );
}

/** The ancestors from the root, each a link to its own view; names come from component_names. */
function AncestorPath({ path }: { path: string }) {
  const ids = path === '' ? [] : path.split('.');
  const names = usePathNamesQuery(ids);
  if (ids.length === 0) return <>—</>;
  const byId = new Map((names.data ?? []).map((entry) => [entry.id, entry.name]));
  return (
    <nav aria-label="Component path">
      <ol className="flex flex-wrap items-center gap-1">
        {ids.map((id, index) => (
          <li key={id} className="flex items-center gap-1">
            {index > 0 && <span aria-hidden="true">›</span>}
            <Link to={`/topology/${id}`} className={SECTION_LINK_CLASS}>
              {byId.get(id) ?? (names.isPending ? '…' : id)}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Details: what the topology says about the component, from the card's own data (nothing else to load but the path). */
export function DetailsSection({ component }: { component: TopologyComponent }) {
  const { can } = usePermissions();
  const costs = COSTS.flatMap(([label, field]) => {
    const value = component[field];
    return value === null || value === 0 ? [] : [[label, formatCost(value, field)] as const];
  });
  const facts: (readonly [string, ReactNode])[] = [
    ['Name', component.name],
    [
      'Type',
      component.type === null ? (
        '—'
      ) : (
        <Link to={`/topology?type=${encodeURIComponent(component.type)}`} className={SECTION_LINK_CLASS}>
          {component.type}
        </Link>
      ),
    ],
    [
      'Status',
      <span className="flex flex-col gap-0.5">
        <span className="flex items-center gap-1.5">
          <HealthDot status={component.status} />
          {component.status}
        </span>
        {component.status_reason && <span className="text-xs text-gray-600">{component.status_reason}</span>}
      </span>,
    ],
    ['Owner', component.owner ?? '—'],
    ['Lifecycle', component.lifecycle ?? '—'],
    ['Labels', <Labels labels={component.labels} />],
    ['Description', component.description ?? '—'],
    ['Path', <AncestorPath path={component.path} />],
    ['Created', <RelativeTime at={component.created_at} />],
    ['Updated', <RelativeTime at={component.updated_at} />],
    ['External ID', component.external_id === null ? '—' : <span className="font-mono text-xs break-all">{component.external_id}</span>],
    ...(component.topology_id !== null && can('topologies', 'read')
      ? ([
          [
            'Topology',
            <Link to={`/settings/topologies/${component.topology_id}`} className={SECTION_LINK_CLASS}>
              Topology settings
            </Link>,
          ],
        ] as const)
      : []),
    ...costs,
  ];

  return (
    <dl className="grid grid-cols-[minmax(5.5rem,auto)_1fr] gap-x-3 gap-y-2 text-sm">
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-gray-500">{label}</dt>
          <dd className="min-w-0 break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
