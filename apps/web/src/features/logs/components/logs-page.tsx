import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { RefreshCw } from 'lucide-react';
import {
  DEBOUNCE_MS,
  INCIDENT_MESSAGES,
  TIME_RANGE_KEYS,
  TIME_RANGE_MINUTES,
  isTimeRangeKey,
  relativeTimeRange,
  type LogLine,
  type TimeRange,
  type TimeRangeKey,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { SearchInput } from '@/components/filters/search-input';
import { QueryError } from '@/components/status/query-error';
import { TimeRangePicker } from '@/components/time-range/time-range-picker';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { useIncidentLinkDialog, type LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useComponentsWithLogsQuery } from '../api/get-components-with-logs';
import { useLogSubjectQuery } from '../api/get-log-subject';
import { useLogsQuery } from '../api/get-logs';
import type { LogsQuery } from '../api/keys';
import { encodeLabelFilters, filterLinesByLabels, hasLabelFilter, type LabelFilter } from '../utils/label-filters';
import { EMPTY_SELECTION, selectRange, selectedIndexes, selectionFor, toggleLine, type LineSelection } from '../utils/line-selection';
import { logEvidence } from '../utils/log-evidence';
import { componentSubject, type LogSubjectOption } from '../utils/log-subjects';
import { logVolume } from '../utils/log-volume';
import { useLogsParams } from '../utils/use-logs-params';
import { ComponentPicker } from './component-picker';
import { LabelFilterChips } from './label-filter-chips';
import { LogLinesTable } from './log-lines-table';
import { LogVolumeHistogram } from './log-volume-histogram';

export const LOGS_MESSAGES = {
  noComponent: 'Please select a component to view the logs',
  noLogs: 'There are no logs matching the search query',
  componentsFailed: 'Unable to load components!',
  unknownComponent: 'No log backend serves this component or config item',
  noSelectors: 'This component has no log selectors',
  noLabelMatches: 'No loaded line carries every chosen label',
  restFailed: 'Only the newest lines are shown: the rest could not be loaded.',
} as const;

const NO_LINES: readonly LogLine[] = [];
const SELECTION_HINT_ID = 'logs-selection-hint';

function Notice({ children }: { children: ReactNode }) {
  return <div className="flex min-h-40 flex-1 flex-col items-center justify-center gap-2 rounded-md border border-dashed border-gray-200 p-8 text-center text-sm text-gray-500">{children}</div>;
}

function plural(count: number, word: string, words = `${word}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? word : words}`;
}

/**
 * The volume's time axis: the range asked for, ending when the answer arrived (or at its newest line, should a clock
 * run ahead). When only the newest lines of more matches are loaded, it starts at the oldest of them, so the bars do
 * not show the rest of the range as quiet.
 */
function volumeRange(lines: readonly LogLine[], start: TimeRangeKey, partial: boolean, answeredAt: number): { from: number; to: number; fromOldest: boolean } {
  let newest = Number.NEGATIVE_INFINITY;
  let oldest = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    const time = line.timestamp === null ? Number.NaN : Date.parse(line.timestamp);
    if (Number.isNaN(time)) continue;
    newest = Math.max(newest, time);
    oldest = Math.min(oldest, time);
  }
  const to = Math.max(answeredAt, Number.isFinite(newest) ? newest : answeredAt);
  const rangeStart = to - TIME_RANGE_MINUTES[start] * 60_000;
  const fromOldest = partial && Number.isFinite(oldest) && oldest > rangeStart;
  return { from: fromOldest ? oldest : rangeStart, to, fromOldest };
}

/**
 * The logs page (spec 000 §2): the lines of one component or config item through one of its log selectors, searched
 * over a time range, with their volume over that range drawn above them.
 */
export function LogsPage() {
  useDocumentTitle('Logs');
  const { params, update } = useLogsParams();
  const components = useComponentsWithLogsQuery();
  const chosen = useLogSubjectQuery(params.topologyId);
  const component = params.topologyId === null ? undefined : (chosen.data ?? undefined);
  const selectors = useMemo(() => (component?.log_selectors ?? []).filter((selector) => selector.name !== ''), [component]);
  const selectorKnown = params.logsSelector !== null && selectors.some((selector) => selector.name === params.logsSelector);
  const firstSelector = selectors[0]?.name ?? null;

  // The first selector is chosen as soon as the component's options are known (spec 000 §2), and one the component no
  // longer has (an old link) gives way to it.
  useEffect(() => {
    if (component === undefined || firstSelector === null || selectorKnown) return;
    update({ logsSelector: firstSelector }, { replace: true });
  }, [component, firstSelector, selectorKnown, update]);

  // A link naming both is read at once; otherwise the call waits for the selector to be known. Should the components
  // fail to load, the link's own values are still tried.
  const logsQuery: LogsQuery | null =
    params.topologyId !== null && params.logsSelector !== null && (!chosen.isSuccess || selectorKnown)
      ? { id: params.topologyId, name: params.logsSelector, query: params.query, start: params.start }
      : null;
  const logs = useLogsQuery(logsQuery);
  const allLines = logs.data?.lines ?? NO_LINES;
  const { labels } = params;
  const lines = useMemo(() => filterLinesByLabels(allLines, labels), [allLines, labels]);

  const [selectionState, setSelection] = useState<LineSelection>(EMPTY_SELECTION);
  // Carrying a selection over to new lines reads them all, so once per new list, not per render.
  const selection = useMemo(() => selectionFor(selectionState, lines), [selectionState, lines]);
  const handleToggleLine = useCallback((index: number) => setSelection((previous) => toggleLine(previous, lines, index)), [lines]);
  const handleSelectRange = useCallback((index: number, from: number) => setSelection((previous) => selectRange(previous, lines, index, from)), [lines]);
  const clearSelection = () => setSelection(EMPTY_SELECTION);

  const setLabelFilters = useCallback((next: readonly LabelFilter[]) => update({ labels: encodeLabelFilters(next) }), [update]);
  const handleLabelClick = useCallback(
    (key: string, value: string) => {
      if (!hasLabelFilter(labels, key, value)) setLabelFilters([...labels, { key, value }]);
    },
    [labels, setLabelFilters],
  );

  const LinkDialog = useIncidentLinkDialog();
  const { can } = usePermissions();
  const { isEnabled } = useFeatureFlags();
  // Link to Incident needs write on incidents and is hidden while that area is off (spec 000 §6); the dialog itself
  // does not check, so the page does.
  const canAttach = LinkDialog !== null && isEnabled('incidents') && can('incident', 'write');
  const [evidence, setEvidence] = useState<LinkableEvidence | null>(null);
  const handleAttach = () => {
    if (params.topologyId === null || params.logsSelector === null) return;
    setEvidence(
      logEvidence({
        subject: { kind: component?.kind ?? 'component', id: params.topologyId, name: component?.name ?? params.topologyId },
        selector: params.logsSelector,
        start: params.start,
        lines,
        selected: selectedIndexes(selection, lines),
      }),
    );
  };

  const options = useMemo<readonly LogSubjectOption[]>(() => (components.data ?? []).map(componentSubject), [components.data]);
  const answeredAt = useMemo(() => (logs.data === undefined ? 0 : Date.now()), [logs.data]);
  const partial = logs.data?.truncated === true || logs.isLoadingRest || logs.restError !== null;
  const volume = useMemo(() => {
    if (lines.length === 0) return null;
    const { from, to, fromOldest } = volumeRange(lines, params.start, partial, answeredAt);
    return { bars: logVolume(lines, from, to), fromOldest };
  }, [lines, params.start, partial, answeredAt]);

  const handleComponentChange = (id: string | null) => {
    if (id === params.topologyId) return;
    // The selector, labels and selection belong to the component; the next one starts from its first selector.
    update({ topologyId: id, logsSelector: null, labels: null });
  };
  const handleTimeRange = (range: TimeRange) => {
    if (range.type !== 'relative') return;
    const key = range.range.replace(/^now-/, '');
    if (isTimeRangeKey(key)) update({ start: key });
  };

  const renderBody = (): ReactNode => {
    if (params.topologyId === null) return <Notice>{LOGS_MESSAGES.noComponent}</Notice>;
    if (chosen.isSuccess && component === undefined) return <Notice>{LOGS_MESSAGES.unknownComponent}</Notice>;
    if (component !== undefined && selectors.length === 0) return <Notice>{LOGS_MESSAGES.noSelectors}</Notice>;
    if (logs.isError) return <QueryError subject="Logs" error={logs.error} onRetry={() => void logs.refetch()} />;
    if (logsQuery === null || logs.isPending) {
      return (
        <Notice>
          {/* Busy while the lines load: whatever waits for the page to settle waits past it (the crawl's axe run read the
              pulsing text, half faded, as too faint to read). */}
          <p role="status" aria-live="polite" aria-busy="true" className="animate-pulse">
            Loading logs…
          </p>
        </Notice>
      );
    }
    if (allLines.length === 0) return <Notice>{LOGS_MESSAGES.noLogs}</Notice>;
    if (lines.length === 0) {
      return (
        <Notice>
          <p>{LOGS_MESSAGES.noLabelMatches}</p>
          <Button variant="secondary" onClick={() => setLabelFilters([])}>
            Clear label filters
          </Button>
        </Notice>
      );
    }
    return (
      <LogLinesTable
        lines={lines}
        selectedIds={selection.ids}
        onToggleLine={handleToggleLine}
        onSelectRange={handleSelectRange}
        onLabelClick={handleLabelClick}
        label={`Log lines of ${component?.name ?? params.topologyId}`}
        describedBy={SELECTION_HINT_ID}
        highlight={logs.isPlaceholderData ? '' : params.query}
      />
    );
  };

  const selectedCount = selection.ids.size;
  // Only the first page is on screen: its total and truncation speak of that page, not of the whole answer.
  const firstPageOnly = logs.isLoadingRest || logs.restError !== null;
  const showTable = logs.data !== undefined && lines.length > 0 && !logs.isError;
  return (
    <div className="flex h-full min-h-0 flex-col gap-2 p-4">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="text-lg font-semibold text-gray-900">Logs</h1>
        {logs.data !== undefined && !logs.isError && (
          <p className="text-sm text-gray-600" aria-live="polite">
            {firstPageOnly && 'Newest '}
            {lines.length === allLines.length ? plural(allLines.length, 'line') : `${lines.length.toLocaleString()} of ${plural(allLines.length, 'line')}`}
            {!firstPageOnly && logs.data.total !== allLines.length && ` (${plural(logs.data.total, 'match', 'matches')} in total)`}
            {logs.data.backend.name !== '' && ` from ${logs.data.backend.name}`}
            {logs.isPlaceholderData && ' · updating…'}
            {logs.isLoadingRest && !logs.isPlaceholderData && ' · loading the rest…'}
          </p>
        )}
      </header>
      <FilterBar
        label="Log search"
        actions={
          <Button variant="secondary" onClick={() => void logs.refetch()} disabled={logsQuery === null} isPending={logs.isFetching && !logs.isPending}>
            {!(logs.isFetching && !logs.isPending) && <RefreshCw aria-hidden="true" className="size-4" />}
            Refresh
          </Button>
        }
      >
        <ComponentPicker components={options} chosen={component} value={params.topologyId} onChange={handleComponentChange} isLoading={components.isPending} />
        <Dropdown
          label="Log selector"
          placeholder="Log selector"
          options={selectors.map((selector) => ({ value: selector.name, label: selector.type === '' ? selector.name : `${selector.name} (${selector.type})` }))}
          value={selectorKnown ? (params.logsSelector ?? undefined) : undefined}
          onChange={(name) => update({ logsSelector: name, labels: null })}
          disabled={selectors.length === 0}
        />
        <SearchInput value={params.query} onChange={(query) => update({ query }, { replace: true })} placeholder="Search logs" debounceMs={DEBOUNCE_MS.logsSearch} />
        <TimeRangePicker value={relativeTimeRange(params.start)} onChange={handleTimeRange} keys={TIME_RANGE_KEYS} showMapped={false} showAbsolute={false} />
      </FilterBar>
      {components.isError && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-700">
          <p>{LOGS_MESSAGES.componentsFailed}</p>
          <Button variant="secondary" onClick={() => void components.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {logs.restError !== null && !logs.isError && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-700">
          <p>
            {LOGS_MESSAGES.restFailed} {logs.restError.message}
          </p>
          <Button variant="secondary" onClick={() => void logs.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {logs.data?.truncated === true && !logs.isError && !firstPageOnly && (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-800">
          Only the newest {plural(allLines.length, 'line')} of {logs.data.total.toLocaleString()} matches were returned; narrow the search or the time range to
          see older lines.
        </p>
      )}
      <LabelFilterChips filters={labels} onRemove={(filter) => setLabelFilters(labels.filter((other) => other !== filter))} onClear={() => setLabelFilters([])} />
      {showTable && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <p id={SELECTION_HINT_ID} aria-live="polite" className="text-gray-600">
            {selectedCount === 0 ? 'Click a line or press Space to select it; Shift extends the selection.' : `${plural(selectedCount, 'line')} selected`}
          </p>
          <div className="ml-auto flex items-center gap-2">
            {selectedCount > 0 && (
              <Button variant="ghost" onClick={clearSelection}>
                Clear selection
              </Button>
            )}
            {canAttach && (
              <Button variant="secondary" onClick={handleAttach} disabled={selectedCount === 0}>
                {INCIDENT_MESSAGES.attachAsEvidence}
              </Button>
            )}
          </div>
        </div>
      )}
      {showTable && volume !== null && volume.bars.counted > 0 && <LogVolumeHistogram volume={volume.bars} partial={volume.fromOldest} />}
      {renderBody()}
      {LinkDialog !== null && evidence !== null && (
        <LinkDialog
          open
          onOpenChange={(open) => {
            if (!open) setEvidence(null);
          }}
          evidence={evidence}
          onLinked={(linked) => {
            if (linked) clearSelection();
          }}
        />
      )}
    </div>
  );
}
