import { Link } from 'react-router';
import { clsx } from 'clsx';
import { COMPONENT_STATUSES, TOPOLOGY_SUMMARIES_BEFORE_MORE, type ComponentStatus } from '@opsdeck/shared';
import type { ComponentSummary } from '../api/types';
import { ShowMoreList } from './show-more-list';

const STATUS_CHIP: Record<ComponentStatus, string> = {
  unhealthy: 'bg-red-50 text-red-700 ring-red-200',
  warning: 'bg-orange-50 text-orange-700 ring-orange-200',
  healthy: 'bg-green-50 text-green-700 ring-green-200',
  unknown: 'bg-gray-50 text-gray-600 ring-gray-200',
};

const CHIP = 'inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ring-inset hover:underline focus-visible:outline-2 focus-visible:outline-blue-500';

interface Chip {
  key: string;
  label: string;
  to: string;
  className: string;
}

export interface SummaryItem {
  key: string;
  title: string;
  /** Where the title leads; the chips narrow it further. */
  to?: string;
  chips: Chip[];
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

function nonZero(counts: Record<string, number>): [string, number][] {
  return Object.entries(counts).filter(([, count]) => count > 0);
}

/**
 * The summary rows of a card (spec 001 §2.9): checks by health, then incidents and insights by type, each type with
 * its severities. Every row and chip leads to the page that lists what it counts.
 */
export function summaryItems(componentId: string, summary: ComponentSummary): SummaryItem[] {
  const items: SummaryItem[] = [];
  const checkChips = COMPONENT_STATUSES.filter((status) => summary.checks[status] > 0).map((status) => ({
    key: status,
    label: `${summary.checks[status]} ${status}`,
    to: `/health?${query({ status })}`,
    className: STATUS_CHIP[status],
  }));
  if (checkChips.length > 0) items.push({ key: 'checks', title: 'Checks', chips: checkChips });
  for (const [type, severities] of Object.entries(summary.incidents)) {
    const counts = nonZero(severities);
    if (counts.length === 0) continue;
    items.push({
      key: `incidents:${type}`,
      title: `${type} incidents`,
      to: `/incidents?${query({ type, component: componentId })}`,
      chips: counts.map(([severity, count]) => ({
        key: severity,
        label: `${count} ${severity}`,
        to: `/incidents?${query({ severity, component: componentId, type })}`,
        className: 'bg-red-50 text-red-700 ring-red-200',
      })),
    });
  }
  for (const [type, severities] of Object.entries(summary.insights)) {
    const counts = nonZero(severities);
    if (counts.length === 0) continue;
    items.push({
      key: `insights:${type}`,
      title: `${type} insights`,
      to: `/catalog/insights?${query({ component: componentId, type })}`,
      chips: counts.map(([severity, count]) => ({
        key: severity,
        label: `${count} ${severity}`,
        to: `/catalog/insights?${query({ component: componentId, type, severity })}`,
        className: 'bg-amber-50 text-amber-800 ring-amber-200',
      })),
    });
  }
  return items;
}

function SummaryRow({ item }: { item: SummaryItem }) {
  return (
    <span className="flex flex-wrap items-center gap-1 text-xs">
      {item.to === undefined ? (
        <span className="font-medium text-gray-700">{item.title}</span>
      ) : (
        <Link to={item.to} className="font-medium text-gray-700 capitalize hover:underline focus-visible:outline-2 focus-visible:outline-blue-500">
          {item.title}
        </Link>
      )}
      {item.chips.map((chip) => (
        <Link key={chip.key} to={chip.to} className={clsx(CHIP, chip.className)}>
          {chip.label}
        </Link>
      ))}
    </span>
  );
}

export interface CardSummariesProps {
  componentId: string;
  summary: ComponentSummary;
}

/** The summary list with 'show more' after 5 rows, scrolling within 200 px (spec 001 §9). */
export function CardSummaries({ componentId, summary }: CardSummariesProps) {
  const items = summaryItems(componentId, summary);
  if (items.length === 0) return null;
  return (
    <ShowMoreList
      label="Summary"
      items={items}
      limit={TOPOLOGY_SUMMARIES_BEFORE_MORE}
      itemKey={(item) => item.key}
      renderItem={(item) => <SummaryRow item={item} />}
    />
  );
}
