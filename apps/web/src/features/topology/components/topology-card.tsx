import { Link } from 'react-router';
import { clsx } from 'clsx';
import { ScrollText } from 'lucide-react';
import { COMPONENT_STATUSES, TOPOLOGY_AVATARS_SHOWN, TOPOLOGY_LIST_MAX_HEIGHT_PX, type ComponentStatus } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { HealthDot } from '@/components/status/health-dot';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import type { TopologyComponent, TopologyComponentRow } from '../api/types';
import { byHealth } from '../utils/sort-components';
import { componentHref } from '../utils/topology-params';
import type { CardLayout } from '../utils/use-card-preferences';
import { CardMenu } from './card-menu';
import { CardProperties } from './card-properties';
import { CardSummaries } from './card-summaries';
import { ComponentIcon } from './component-icon';

/** Spec 001 §4: red top border for unhealthy, orange for warning. */
const TOP_BORDER: Record<ComponentStatus, string> = {
  unhealthy: 'border-t-red-500',
  warning: 'border-t-orange-400',
  healthy: 'border-t-gray-200',
  unknown: 'border-t-gray-200',
};

const COUNT_TEXT: Record<ComponentStatus, string> = {
  unhealthy: 'text-red-700',
  warning: 'text-orange-700',
  healthy: 'text-green-700',
  unknown: 'text-gray-500',
};

const LINK = 'hover:underline focus-visible:outline-2 focus-visible:outline-blue-500';

function ChildCounts({ items }: { items: readonly TopologyComponentRow[] }) {
  const counts = COMPONENT_STATUSES.map((status) => ({ status, count: items.filter((child) => child.status === status).length })).filter(
    ({ count }) => count > 0,
  );
  return (
    <p aria-label="Children by health" className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
      {counts.map(({ status, count }) => (
        <span key={status} className={clsx('inline-flex items-center gap-1', COUNT_TEXT[status])}>
          <HealthDot status={status} />
          {count} {status}
        </span>
      ))}
    </p>
  );
}

interface ChildRowsProps {
  parent: TopologyComponent;
  items: readonly TopologyComponentRow[];
  search: URLSearchParams;
}

function ChildRows({ parent, items, search }: ChildRowsProps) {
  return (
    <ul aria-label={`Children of ${parent.name}`} className="flex flex-col gap-0.5 overflow-y-auto text-xs" style={{ maxHeight: TOPOLOGY_LIST_MAX_HEIGHT_PX }}>
      {byHealth(items).map((child) => (
        <li key={child.id} data-status={child.status} className="flex min-w-0 items-center gap-1.5">
          <HealthDot status={child.status} />
          <Link to={componentHref(child.id, search, parent.id)} className={clsx('truncate text-gray-800', LINK)}>
            {child.name}
          </Link>
          {child.status_reason !== null && child.status_reason !== '' && <span className="truncate text-gray-500">{child.status_reason}</span>}
        </li>
      ))}
    </ul>
  );
}

function TeamAvatars({ teams }: { teams: TopologyComponent['teams'] }) {
  const shown = teams.slice(0, TOPOLOGY_AVATARS_SHOWN);
  const hidden = teams.length - shown.length;
  return (
    <ul aria-label="Teams" className="flex items-center -space-x-1.5">
      {shown.map((team) => (
        <li key={team.id}>
          <Link to={`/settings/teams/${encodeURIComponent(team.id)}`} className="block rounded-full focus-visible:outline-2 focus-visible:outline-blue-500">
            {/* Named by words of its own, not an aria-label over the initials, which a name must contain (WCAG 2.5.3). */}
            <span className="sr-only">Team {team.name}</span>
            <span aria-hidden="true">
              <Avatar name={team.name} src={team.icon !== null && /^https?:\/\//.test(team.icon) ? team.icon : null} size="sm" />
            </span>
          </Link>
        </li>
      ))}
      {hidden > 0 && (
        <li
          title={teams
            .slice(TOPOLOGY_AVATARS_SHOWN)
            .map((team) => team.name)
            .join(', ')}
          className="inline-flex size-6 items-center justify-center rounded-full bg-gray-100 text-[10px] font-medium text-gray-600 ring-2 ring-white"
        >
          +{hidden}
        </li>
      )}
    </ul>
  );
}

export interface TopologyCardProps {
  component: TopologyComponent;
  layout: CardLayout;
  /** The page's query string, carried to the links the card makes (less refererId and status). */
  search: URLSearchParams;
  /** The component whose children the cards are; opening a card names it as the referer. */
  refererId?: string;
  onOpenSidePanel?: (component: TopologyComponent) => void;
}

/** One component as a card (spec 001 §2.9, §9), as wide as the chosen size or the width slider. */
export function TopologyCard({ component, layout, search, refererId, onOpenSidePanel }: TopologyCardProps) {
  const compact = layout.size === 'small' || layout.size === 'medium';
  const children = component.components ?? [];
  const text = component.text ?? component.description;
  // Spec 001 §6: View Logs is hidden while the logs area is switched off.
  const { isEnabled } = useFeatureFlags();
  return (
    <article
      aria-label={component.name}
      data-status={component.status}
      className={clsx('flex max-w-full min-w-0 flex-col gap-2 rounded-md border border-t-4 border-gray-200 bg-white p-3 shadow-sm', TOP_BORDER[component.status])}
      style={{ width: layout.width }}
    >
      <header className="flex items-start gap-2">
        <ComponentIcon icon={component.icon} type={component.type} className="mt-0.5" />
        <div className="flex min-w-0 flex-1 flex-col">
          <h2 className="truncate text-sm font-semibold text-gray-900" title={component.name}>
            <Link to={componentHref(component.id, search, refererId)} className={LINK}>
              {component.name}
            </Link>
          </h2>
          {text !== null && text !== '' && (
            <p className="truncate text-xs text-gray-500" title={text}>
              {text}
            </p>
          )}
          {component.status_reason !== null && component.status_reason !== '' && (
            <p className={clsx('text-xs', COUNT_TEXT[component.status])}>{component.status_reason}</p>
          )}
        </div>
        <CardMenu component={component} onOpenSidePanel={onOpenSidePanel === undefined ? undefined : () => onOpenSidePanel(component)} />
      </header>
      <CardProperties properties={component.properties} compact={compact} />
      {children.length > 0 &&
        (layout.viewType === 'detailed' ? <ChildRows parent={component} items={children} search={search} /> : <ChildCounts items={children} />)}
      <CardSummaries componentId={component.id} summary={component.summary} />
      <footer className="mt-auto flex flex-wrap items-center gap-2 text-xs text-gray-600">
        {component.type !== null && component.type !== '' && (
          <Link to={`/topology?${new URLSearchParams({ type: component.type }).toString()}`} className={clsx('rounded bg-gray-100 px-1.5 py-0.5', LINK)}>
            {component.type}
          </Link>
        )}
        {component.logs && isEnabled('logs') && (
          <Link to={`/logs?${new URLSearchParams({ topologyId: component.id }).toString()}`} className={clsx('inline-flex items-center gap-1 text-blue-700', LINK)}>
            <ScrollText aria-hidden="true" className="size-3.5" />
            Logs
          </Link>
        )}
        {component.teams.length > 0 && (
          <span className="ml-auto">
            <TeamAvatars teams={component.teams} />
          </span>
        )}
      </footer>
    </article>
  );
}
