import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'radix-ui';
import { Pencil, Play } from 'lucide-react';
import { TIME_RANGE_KEYS, relativeTimeRange, isTimeRangeKey, type Role, type TimeRange, type TimeRangeKey } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { CountBadge } from '@/components/count-badge/count-badge';
import { Dialog } from '@/components/dialog/dialog';
import { HealthDot } from '@/components/status/health-dot';
import { QueryError } from '@/components/status/query-error';
import { TimeRangePicker } from '@/components/time-range/time-range-picker';
import { usePermissions } from '@/lib/auth/permissions';
import { IncidentLinkSlot } from '@/lib/incident-link/incident-link-slot';
import { PlaybooksMenuSlot } from '@/lib/playbook-run/playbook-run-slot';
import { useCheckDetailQuery } from '../api/get-check-detail';
import { CheckArtifacts } from './check-artifacts';
import { healthKeys } from '../api/keys';
import { useRunCheckMutation } from '../api/run-check';
import type { CheckSummary } from '../api/types';
import { FALLBACK_CHECK_RANGE, defaultCheckRange } from '../utils/default-check-range';
import { CheckHistory } from './check-history';
import { CheckRelationships, relationshipRows } from './check-relationships';
import { CheckStatTiles } from './check-stat-tiles';
import { HealthOverviewChart } from './health-overview-chart';
import { useShortScreen } from './use-short-screen';

/** Spec 001 §6: Run Now is offered to these roles only. */
export const RUN_NOW_ROLES: readonly Role[] = ['admin', 'editor', 'responder', 'commander'];
/** A run that has not shown up in the history by then is no longer waited for. */
const RUN_WAIT_MS = 60_000;

export interface CheckDetailModalProps {
  checkId: string;
  /** The check's summary row when the dashboard has it, so the default range is known before the detail loads. */
  initialCheck?: CheckSummary;
  onClose: () => void;
}

type DetailTab = 'history' | 'graph' | 'spec' | 'relationships' | 'artifacts';

const TAB_TRIGGER =
  '-mb-px inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap border-b-2 border-transparent px-3 py-1.5 text-sm text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';

/** The full-size check detail of spec 001 §2.3. */
export function CheckDetailModal({ checkId, initialCheck, onClose }: CheckDetailModalProps) {
  const queryClient = useQueryClient();
  const { roles, can } = usePermissions();
  const isShort = useShortScreen();
  const [range, setRange] = useState<TimeRangeKey | null>(initialCheck ? defaultCheckRange(initialCheck.last_runtime) : null);
  const [tab, setTab] = useState<DetailTab>('history');
  const [awaitingRunSince, setAwaitingRunSince] = useState<Date | null>(null);
  const effectiveRange = range ?? FALLBACK_CHECK_RANGE;
  const detail = useCheckDetailQuery(checkId, effectiveRange);
  const check = detail.data?.check;

  // Opened from a link, the last run is known only once the detail arrives; the range then follows it.
  const lastRuntime = check?.last_runtime;
  useEffect(() => {
    if (range === null && lastRuntime !== undefined) setRange(defaultCheckRange(lastRuntime));
  }, [range, lastRuntime]);

  useEffect(() => {
    if (awaitingRunSince === null) return undefined;
    const timer = setTimeout(() => setAwaitingRunSince(null), RUN_WAIT_MS);
    return () => clearTimeout(timer);
  }, [awaitingRunSince]);

  // The history polls by itself while a run is awaited, and holds the new run once it is recorded; only the
  // tiles, the chart and the dashboard need asking again.
  const runCheck = useRunCheckMutation((startedAt) => {
    setAwaitingRunSince(startedAt);
    void queryClient.invalidateQueries({ queryKey: healthKeys.details(checkId) });
  });

  const handleRunRecorded = useCallback(() => {
    setAwaitingRunSince(null);
    void queryClient.invalidateQueries({ queryKey: healthKeys.details(checkId) });
    void queryClient.invalidateQueries({ queryKey: healthKeys.artifacts(checkId) });
    void queryClient.invalidateQueries({ queryKey: healthKeys.summaries() });
  }, [checkId, queryClient]);

  const handleRange = (next: TimeRange) => {
    if (next.type !== 'relative') return;
    const key = next.range.replace(/^now-/, '');
    if (isTimeRangeKey(key)) setRange(key);
  };

  const canRunNow = roles.some((role) => RUN_NOW_ROLES.includes(role));
  const name = check?.name ?? initialCheck?.name ?? 'Check';
  // The health over the modal's range: a passing check that failed in it shows as a warning, as on the dashboard.
  const status = check?.health ?? initialCheck?.health ?? 'unknown';
  const relationships = detail.data ? relationshipRows(detail.data.relationships) : [];
  // An exec check that names artifacts keeps its newest run's files; other checks have none to list.
  const keepsArtifacts = Array.isArray(check?.spec.artifacts);
  const activeTab = (tab === 'graph' && !isShort) || (tab === 'artifacts' && !keepsArtifacts) ? 'history' : tab;
  const labels = Object.entries(check?.labels ?? initialCheck?.labels ?? {});
  const chart = <HealthOverviewChart points={detail.data?.series.points ?? []} bucket={detail.data?.series.bucket ?? ''} isLoading={detail.isPending} />;

  const footer = check ? (
    <>
      {can('canaries', 'write') && (
        <Link
          to={`/settings/canaries/${check.canary_id}`}
          className="mr-auto inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          <Pencil aria-hidden="true" className="size-4" />
          Edit
        </Link>
      )}
      {can('playbook_runs', 'write') && <PlaybooksMenuSlot target={{ type: 'check', id: check.id }} />}
      <IncidentLinkSlot evidence={{ type: 'check', check_id: check.id, description: check.name }} />
      {canRunNow && (
        <Button onClick={() => runCheck.mutate(check.id)} isPending={runCheck.isPending}>
          <Play aria-hidden="true" className="size-4" />
          Run Now
        </Button>
      )}
    </>
  ) : undefined;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      size="full"
      title={
        <span className="flex items-center gap-2">
          {/* Kept out of the dialog's name, which is the check's name alone. */}
          <span aria-hidden="true" className="inline-flex" data-testid="check-health">
            <HealthDot status={status} />
          </span>
          {name}
        </span>
      }
      footer={footer}
    >
      {detail.isError && detail.data === undefined ? (
        <QueryError error={detail.error} onRetry={() => void detail.refetch()} />
      ) : (
        <div className="flex flex-col gap-3">
          {labels.length > 0 && (
            <ul aria-label="Labels" className="flex flex-wrap gap-1.5">
              {labels.map(([key, value]) => (
                <li key={key} className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">
                  {key}: {value}
                </li>
              ))}
            </ul>
          )}
          {detail.data ? (
            <CheckStatTiles
              detail={detail.data}
              rangeControl={<TimeRangePicker value={relativeTimeRange(effectiveRange)} onChange={handleRange} keys={TIME_RANGE_KEYS} showMapped={false} showAbsolute={false} />}
            />
          ) : (
            <div aria-busy="true" className="h-14 animate-pulse rounded-md bg-gray-100" />
          )}
          {!isShort && chart}
          <Tabs.Root value={activeTab} onValueChange={(value) => setTab(value as DetailTab)} className="flex flex-col">
            <Tabs.List aria-label="Check details" className="flex gap-1 overflow-x-auto border-b border-gray-200">
              <Tabs.Trigger value="history" className={TAB_TRIGGER}>
                History
              </Tabs.Trigger>
              {isShort && (
                <Tabs.Trigger value="graph" className={TAB_TRIGGER}>
                  Graph
                </Tabs.Trigger>
              )}
              <Tabs.Trigger value="spec" className={TAB_TRIGGER}>
                Spec
              </Tabs.Trigger>
              <Tabs.Trigger value="relationships" className={TAB_TRIGGER}>
                Relationships
                <CountBadge count={relationships.length} label="relationships" />
              </Tabs.Trigger>
              {keepsArtifacts && (
                <Tabs.Trigger value="artifacts" className={TAB_TRIGGER}>
                  Artifacts
                </Tabs.Trigger>
              )}
            </Tabs.List>
            <Tabs.Content value="history" className="pt-3 focus-visible:outline-none">
              <CheckHistory checkId={checkId} range={effectiveRange} awaitingRunSince={awaitingRunSince} onRunRecorded={handleRunRecorded} />
            </Tabs.Content>
            {isShort && (
              <Tabs.Content value="graph" className="pt-3">
                {chart}
              </Tabs.Content>
            )}
            <Tabs.Content value="spec" className="pt-3">
              <pre aria-label="Spec" className="max-h-[50vh] overflow-auto rounded-md bg-gray-50 p-3 font-mono text-xs text-gray-800">
                {check?.spec_yaml ?? ''}
              </pre>
            </Tabs.Content>
            <Tabs.Content value="relationships" className="pt-3">
              <CheckRelationships rows={relationships} />
            </Tabs.Content>
            {keepsArtifacts && (
              <Tabs.Content value="artifacts" className="pt-3">
                <CheckArtifacts checkId={checkId} agentName={check?.agent_id == null ? null : (check.agent_name ?? check.agent_id)} />
              </Tabs.Content>
            )}
          </Tabs.Root>
        </div>
      )}
    </Dialog>
  );
}
