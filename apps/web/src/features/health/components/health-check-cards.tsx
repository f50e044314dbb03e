import { clsx } from 'clsx';
import { Button } from '@/components/button/button';
import { CountBadge } from '@/components/count-badge/count-badge';
import { HealthDot } from '@/components/status/health-dot';
import type { CheckHealth, CheckSummary, SummaryGroup } from '../api/types';
import { formatLatency, uptimePercentage } from '../utils/check-format';
import { GROUP_HEALTH_STATUS, groupLabel, membersByGroup } from './health-rows';
import { UptimeText } from './uptime-text';

export interface HealthCheckCardsProps {
  checks: readonly CheckSummary[];
  groups: readonly SummaryGroup[];
  groupBy: string | null;
  totalEntries: number;
  onOpenCheck: (checkId: string) => void;
  /** Asks for more checks when the list is paged and more exist. */
  onShowMore?: () => void;
}

/** Top border by health, as the topology cards do: red unhealthy, orange warning (spec 001 §2.9). */
const CARD_BORDER: Record<CheckHealth, string> = {
  unhealthy: 'border-t-red-500',
  warning: 'border-t-orange-400',
  healthy: 'border-t-green-500',
  unknown: 'border-t-gray-300',
};

function CheckCard({ check, onOpen }: { check: CheckSummary; onOpen: () => void }) {
  const { health } = check;
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className={clsx(
          'flex w-full flex-col gap-1 rounded-md border border-t-4 border-gray-200 bg-white p-3 text-left text-sm shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500',
          CARD_BORDER[health],
        )}
      >
        <span className="flex items-center gap-1.5 font-medium text-gray-900">
          <HealthDot status={health} />
          <span className="truncate">{check.name}</span>
        </span>
        <span className="truncate text-xs text-gray-500">{check.canary_name}</span>
        <span className="flex gap-3 text-xs text-gray-700">
          <span>
            Uptime <UptimeText percentage={uptimePercentage(check.uptime)} />
          </span>
          <span>Latency {formatLatency(check.latency.p95) || '–'}</span>
        </span>
      </button>
    </li>
  );
}

const GRID = 'grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-3';

/** The card layout: one card per check, in sections per group when grouped. */
export function HealthCheckCards({ checks, groups, groupBy, totalEntries, onOpenCheck, onShowMore }: HealthCheckCardsProps) {
  if (checks.length === 0) return <p className="py-8 text-center text-sm text-gray-500">No data available</p>;
  if (groupBy !== null) {
    const members = membersByGroup(checks, groupBy);
    return (
      <div className="flex flex-col gap-4 overflow-y-auto">
        {groups.map((group) => (
          <section key={group.key} aria-label={groupLabel(group.key)} className="flex flex-col gap-2">
            <h3 className="flex items-center gap-1.5 text-sm font-semibold text-gray-800">
              <HealthDot status={GROUP_HEALTH_STATUS[group.health]} />
              {groupLabel(group.key)}
              <CountBadge count={group.count} label="checks" />
            </h3>
            <ul className={GRID}>
              {(members.get(group.key) ?? []).map((check) => (
                <CheckCard key={check.id} check={check} onOpen={() => onOpenCheck(check.id)} />
              ))}
            </ul>
          </section>
        ))}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3 overflow-y-auto">
      <ul aria-label="Health checks" className={GRID}>
        {checks.map((check) => (
          <CheckCard key={check.id} check={check} onOpen={() => onOpenCheck(check.id)} />
        ))}
      </ul>
      {onShowMore && checks.length < totalEntries && (
        <Button variant="secondary" className="self-center" onClick={onShowMore}>
          Show more ({checks.length} of {totalEntries})
        </Button>
      )}
    </div>
  );
}
