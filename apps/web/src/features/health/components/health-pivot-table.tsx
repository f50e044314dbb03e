import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Popover } from 'radix-ui';
import { CountBadge } from '@/components/count-badge/count-badge';
import { DataTable } from '@/components/data-table/data-table';
import { HealthDot } from '@/components/status/health-dot';
import type { CheckSummary } from '../api/types';
import { formatLatency, formatUptimePercentage, uptimePercentage } from '../utils/check-format';
import type { PivotCell, PivotCellType, PivotMatrix, PivotRow } from '../utils/pivot';
import { UptimeText } from './uptime-text';

export interface HealthPivotTableProps {
  matrix: PivotMatrix;
  cellType: PivotCellType;
  isLoading: boolean;
  onOpenCheck: (checkId: string) => void;
}

const CELL_BUTTON =
  'inline-flex h-6 max-w-full items-center gap-1.5 rounded px-1.5 text-left hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500';

/** The cell's figure as text, for its accessible name and tooltip. */
function cellText(cell: PivotCell, cellType: PivotCellType): string {
  switch (cellType) {
    case 'health':
      return cell.health;
    case 'uptime':
      return cell.uptime === null ? 'no runs' : formatUptimePercentage(cell.uptime);
    case 'latency':
      return cell.p95 === null ? 'no latency' : formatLatency(cell.p95);
  }
}

function CellValue({ cell, cellType }: { cell: PivotCell; cellType: PivotCellType }) {
  switch (cellType) {
    case 'health':
      return <HealthDot status={cell.health} />;
    case 'uptime':
      return <UptimeText percentage={cell.uptime} empty="-" />;
    case 'latency':
      return <span>{cell.p95 === null ? '-' : formatLatency(cell.p95)}</span>;
  }
}

function CheckChoice({ check, onOpen }: { check: CheckSummary; onOpen: () => void }) {
  return (
    <li>
      <Popover.Close asChild>
        <button type="button" onClick={onOpen} className="flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500">
          <HealthDot status={check.health} />
          <span className="min-w-0 flex-1 truncate">{check.name}</span>
          <span className="truncate text-xs text-gray-500">{check.canary_name}</span>
          <span className="text-xs">
            <UptimeText percentage={uptimePercentage(check.uptime)} empty="-" />
          </span>
        </button>
      </Popover.Close>
    </li>
  );
}

interface PivotCellButtonProps {
  cell: PivotCell;
  rowKey: string;
  column: string;
  cellType: PivotCellType;
  onOpenCheck: (checkId: string) => void;
}

/**
 * One check opens its detail; several (the same name in one column, e.g. in two canaries) open a list to pick from,
 * each entry opening that check.
 */
function PivotCellButton({ cell, rowKey, column, cellType, onOpenCheck }: PivotCellButtonProps) {
  const [only] = cell.checks;
  const count = cell.checks.length;
  const name = `${rowKey}, ${column}: ${cellText(cell, cellType)}${count > 1 ? `, ${count} checks` : ''}`;
  if (count === 1 && only !== undefined) {
    return (
      <button type="button" aria-label={name} title={name} className={CELL_BUTTON} onClick={() => onOpenCheck(only.id)}>
        <CellValue cell={cell} cellType={cellType} />
      </button>
    );
  }
  return (
    <Popover.Root>
      <Popover.Trigger aria-label={name} title={name} className={CELL_BUTTON}>
        <CellValue cell={cell} cellType={cellType} />
        <CountBadge count={count} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          aria-label={`${rowKey} in ${column}`}
          className="z-50 max-h-80 w-80 overflow-auto rounded-md bg-white p-1 shadow-lg ring-1 ring-gray-200"
        >
          <ul>
            {cell.checks.map((check) => (
              <CheckChoice key={check.id} check={check} onOpen={() => onOpenCheck(check.id)} />
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function buildColumns(columns: readonly string[], cellType: PivotCellType, onOpenCheck: (checkId: string) => void): ColumnDef<PivotRow>[] {
  return [
    {
      id: 'name',
      header: 'Checks',
      accessorFn: (row) => row.key,
      size: 280,
      cell: ({ row: { original } }) => (
        <span className="block truncate" title={original.key}>
          {original.key}
        </span>
      ),
    },
    ...columns.map(
      (column, index): ColumnDef<PivotRow> => ({
        // Ids by position: a value may hold characters the table library gives a meaning to.
        id: `pivot-${index}`,
        header: column,
        size: 120,
        cell: ({ row: { original } }) => {
          const cell = original.cells[index];
          return cell === undefined ? null : <PivotCellButton cell={cell} rowKey={original.key} column={column} cellType={cellType} onOpenCheck={onOpenCheck} />;
        },
      }),
    ),
  ];
}

/** The pivot view: the same checks compared across a dimension, a row per check name, a column per value; rows are virtualized. */
export function HealthPivotTable({ matrix, cellType, isLoading, onOpenCheck }: HealthPivotTableProps) {
  const columns = useMemo(() => buildColumns(matrix.columns, cellType, onOpenCheck), [matrix.columns, cellType, onOpenCheck]);
  return (
    <DataTable
      label="Health pivot"
      columns={columns}
      data={matrix.rows}
      isLoading={isLoading}
      getRowId={(row) => row.key}
      maxHeight="calc(100vh - 16rem)"
      emptyText="No data available"
    />
  );
}
