import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, useParams } from 'react-router';
import { clsx } from 'clsx';
import { Box, Cloud, Database, Layers, PanelRightClose, PanelRightOpen, ScrollText, Server } from 'lucide-react';
import { formatRelativeTime } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { CountBadge } from '@/components/count-badge/count-badge';
import { HealthDot } from '@/components/status/health-dot';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { useDocumentTitle } from '@/lib/use-document-title';
import { isStale } from '../../utils/catalog-format';
import { isConfigId, useConfigDetailQuery, type ConfigDetail } from '../api/get-config-detail';
import { useConfigHasLogsQuery } from '../api/get-config-has-logs';
import { ConfigChangesTab } from './config-changes-tab';
import { ConfigChecksTab } from './config-checks-tab';
import { ConfigContentTab } from './config-content-tab';
import { ConfigDetailsPanel } from './config-details-panel';
import { ConfigPlaybooksTab } from './config-playbooks-tab';

// The graph and the insights list are large; they load the first time their tab opens.
const ConfigInsightsTab = lazy(() => import('../../insights/components/config-insights-tab').then((module) => ({ default: module.ConfigInsightsTab })));
const RelationshipsTab = lazy(() => import('../../relationships/components/relationships-tab').then((module) => ({ default: module.RelationshipsTab })));

export type ConfigPageTab = 'config' | 'changes' | 'insights' | 'relationships' | 'playbooks' | 'checks';

interface TabLink {
  tab: ConfigPageTab;
  path: string;
  label: string;
  /** The tab's badge; the content tab has none. */
  count?: (config: ConfigDetail) => number;
}

const TABS: readonly TabLink[] = [
  { tab: 'config', path: '', label: 'Config' },
  { tab: 'changes', path: 'changes', label: 'Changes', count: (config) => config.changes },
  { tab: 'insights', path: 'insights', label: 'Insights', count: (config) => config.analysis },
  { tab: 'relationships', path: 'relationships', label: 'Relationships', count: (config) => config.relationships },
  { tab: 'playbooks', path: 'playbooks', label: 'Playbooks', count: (config) => config.playbook_runs },
  { tab: 'checks', path: 'checks', label: 'Checks', count: (config) => config.checks },
];

/**
 * Below Tailwind's xl breakpoint the details panel lies over the page instead of beside it: at 1024 px, beside the
 * app's sidebar, a third column would leave the content too narrow.
 */
const SIDE_BY_SIDE_FROM_PX = 1280;

function isSideBySide(): boolean {
  return window.innerWidth >= SIDE_BY_SIDE_FROM_PX;
}

function ClassIcon({ configClass }: { configClass: string }) {
  const className = 'size-5 shrink-0 text-gray-500';
  switch (configClass) {
    case 'Kubernetes':
      return <Layers aria-hidden="true" className={className} />;
    case 'AWS':
      return <Cloud aria-hidden="true" className={className} />;
    case 'Database':
      return <Database aria-hidden="true" className={className} />;
    case 'Server':
      return <Server aria-hidden="true" className={className} />;
    default:
      return <Box aria-hidden="true" className={className} />;
  }
}

function NotFound() {
  return (
    <section className="p-4">
      <p role="alert" className="mt-16 text-center text-sm text-gray-600">
        Details not found
      </p>
    </section>
  );
}

function Markers({ config }: { config: ConfigDetail }) {
  const stale = config.deleted_at === null && isStale(config.last_scraped_time);
  return (
    <>
      {config.deleted_at !== null && (
        <span className="rounded bg-gray-200 px-1.5 text-xs font-medium text-gray-700" title={`Deleted ${formatRelativeTime(config.deleted_at)} ago`}>
          Deleted
        </span>
      )}
      {stale && config.last_scraped_time !== null && (
        <span className="rounded bg-amber-100 px-1.5 text-xs font-medium text-amber-800" title={`Last scraped ${formatRelativeTime(config.last_scraped_time)} ago`}>
          Stale
        </span>
      )}
    </>
  );
}

/**
 * 'View logs' where a log backend route matches the item (issue #34): the logs page opened on it. Hidden while the
 * logs area is off or the user may not read log backends, as the logs page itself is (spec 000 §6).
 */
function ViewLogsLink({ config }: { config: ConfigDetail }) {
  const { isEnabled, isLoading } = useFeatureFlags();
  const { can } = usePermissions();
  // Flags still loading read as enabled; waiting for them spares a call while the logs area is off.
  const offered = config.deleted_at === null && !isLoading && isEnabled('logs') && can('logging_backends', 'read');
  const hasLogs = useConfigHasLogsQuery(config.id, offered);
  if (!offered || hasLogs.data !== true) return null;
  return (
    <Link
      to={`/logs?${new URLSearchParams({ topologyId: config.id }).toString()}`}
      className="inline-flex items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-gray-800 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500"
    >
      <ScrollText aria-hidden="true" className="size-4" />
      View logs
    </Link>
  );
}

function TabBody({ tab, config }: { tab: ConfigPageTab; config: ConfigDetail }) {
  switch (tab) {
    case 'config':
      return <ConfigContentTab config={config} />;
    case 'changes':
      return <ConfigChangesTab configId={config.id} ownCount={config.changes} />;
    case 'insights':
      return <ConfigInsightsTab configId={config.id} />;
    case 'relationships':
      return <RelationshipsTab configId={config.id} />;
    case 'playbooks':
      return <ConfigPlaybooksTab configId={config.id} />;
    case 'checks':
      return <ConfigChecksTab configId={config.id} />;
  }
}

/**
 * The details panel: a column beside the page on wide screens and a sheet over it on small ones, behind 'Show
 * Sidebar'. Escape closes it, and so does a click outside it while it covers the page.
 */
function useDetailsPanel() {
  const [open, setOpen] = useState(isSideBySide);
  const panelRef = useRef<HTMLElement>(null);
  const close = useCallback(() => setOpen(false), []);

  // Crossing the breakpoint resets the panel to that width's default: beside the page when wide, folded away when
  // narrowing would make it cover the page.
  useEffect(() => {
    // jsdom has no matchMedia; every browser the console supports does.
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(`(min-width: ${SIDE_BY_SIDE_FROM_PX}px)`);
    const follow = (event: MediaQueryListEvent) => setOpen(event.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);

  useEffect(() => {
    if (!open) return undefined;
    const handleKeyDown = (event: KeyboardEvent) => {
      // A dialog opened over the page takes its own Escape.
      if (event.key !== 'Escape' || document.querySelector('[role="dialog"]') !== null) return;
      close();
    };
    const handlePointerDown = (event: PointerEvent) => {
      if (isSideBySide()) return;
      if (event.target instanceof Node && panelRef.current?.contains(event.target) !== true) close();
    };
    document.addEventListener('keydown', handleKeyDown);
    document.addEventListener('pointerdown', handlePointerDown);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      document.removeEventListener('pointerdown', handlePointerDown);
    };
  }, [open, close]);

  return { open, setOpen, close, panelRef };
}

function Layout({ children }: { children: ReactNode }) {
  return <section className="relative flex min-h-0 min-w-0 flex-1">{children}</section>;
}

/** /catalog/{id} and its tabs (spec 002 §2.1): the item's header, tab links with counts, the tab and the details panel. */
export function ConfigDetailPage({ tab }: { tab: ConfigPageTab }) {
  const { id } = useParams();
  const detail = useConfigDetailQuery(id);
  const panel = useDetailsPanel();
  useDocumentTitle(detail.data?.name ?? 'Config');

  if (!isConfigId(id) || detail.data === null) return <NotFound />;
  if (detail.isError) {
    return (
      <section className="p-4">
        <QueryError subject="Config" error={detail.error} onRetry={() => void detail.refetch()} />
      </section>
    );
  }
  if (detail.isPending) {
    return (
      <section className="p-4" aria-busy="true">
        <p className="text-sm text-gray-500">Loading config…</p>
      </section>
    );
  }

  const config = detail.data;
  return (
    <Layout>
      <div className="flex min-w-0 flex-1 flex-col gap-3 p-4">
        <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <ClassIcon configClass={config.config_class} />
          <h1 className={clsx('min-w-0 truncate text-lg font-semibold', config.deleted_at === null ? 'text-gray-900' : 'text-gray-500')} title={config.name}>
            {config.name}
          </h1>
          <span className="text-sm text-gray-500">{config.type}</span>
          {config.health !== null && (
            <span className="flex items-center gap-1.5 text-sm text-gray-700">
              <HealthDot status={config.health} />
              {config.health}
            </span>
          )}
          {config.status !== null && <span className="rounded bg-gray-100 px-1.5 text-xs text-gray-700">{config.status}</span>}
          <Markers config={config} />
          <div className="ml-auto flex items-center gap-2">
            <ViewLogsLink config={config} />
            {!panel.open && (
              <Button variant="secondary" onClick={() => panel.setOpen(true)} aria-expanded={false} aria-controls="config-details-panel">
                <PanelRightOpen aria-hidden="true" className="size-4" />
                Show Sidebar
              </Button>
            )}
          </div>
        </header>
        <nav aria-label="Config tabs" className="-mx-4 overflow-x-auto border-b border-gray-200 px-4">
          <ul className="flex gap-1">
            {TABS.map((link) => (
              <li key={link.tab}>
                <NavLink
                  to={link.path === '' ? `/catalog/${config.id}` : `/catalog/${config.id}/${link.path}`}
                  end
                  className={({ isActive }) =>
                    clsx(
                      'inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-500',
                      isActive ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900',
                    )
                  }
                >
                  {link.label}
                  {link.count !== undefined && <CountBadge count={link.count(config)} label={link.label.toLowerCase()} />}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-h-0 min-w-0 flex-1">
          <Suspense fallback={<p role="status" aria-busy="true" className="text-sm text-gray-500">Loading…</p>}>
            <TabBody tab={tab} config={config} />
          </Suspense>
        </div>
      </div>
      {panel.open && (
        <aside
          id="config-details-panel"
          ref={panel.panelRef}
          aria-label="Config details"
          className="absolute inset-y-0 right-0 z-20 flex w-80 max-w-[90vw] flex-col overflow-y-auto border-l border-gray-200 bg-white shadow-lg xl:static xl:z-auto xl:max-w-none xl:shadow-none"
        >
          <div className="flex items-center justify-between border-b border-gray-200 px-3 py-2">
            <h2 className="text-sm font-semibold text-gray-900">Details</h2>
            <Button variant="ghost" aria-label="Hide Sidebar" aria-expanded aria-controls="config-details-panel" onClick={panel.close}>
              <PanelRightClose aria-hidden="true" className="size-4" />
            </Button>
          </div>
          <ConfigDetailsPanel config={config} />
        </aside>
      )}
    </Layout>
  );
}
