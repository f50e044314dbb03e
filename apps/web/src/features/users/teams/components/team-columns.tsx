import type { ColumnDef } from '@tanstack/react-table';
import type { SettingsResourceRow } from '@/lib/settings-resources/api/types';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the team is reached: its incident responder clients (email, Jira…) and its notification channels. */
export function teamChannels(spec: Record<string, unknown> | null): string[] {
  const responders = isRecord(spec?.responder_clients) ? Object.keys(spec.responder_clients).map((client) => `${client} (responders)`) : [];
  const notifications = Array.isArray(spec?.notifications)
    ? spec.notifications.flatMap((entry: unknown) => {
        if (!isRecord(entry)) return [];
        const label = typeof entry.name === 'string' && entry.name !== '' ? entry.name : typeof entry.connection === 'string' ? entry.connection.replace(/^connection:\/\//, '') : null;
        return label === null ? [] : [`${label} (notifications)`];
      })
    : [];
  return [...responders, ...notifications];
}

/** teams_with_status's member_count, a column the generic row type does not list. */
function memberCount(row: SettingsResourceRow): number | null {
  return 'member_count' in row && typeof row.member_count === 'number' ? row.member_count : null;
}

/**
 * The teams list's own columns (#34 item 21): who is in the team and where it is reached, instead of the job columns
 * of the generic list, which a team never fills.
 */
export const TEAM_COLUMNS: ReadonlyArray<ColumnDef<SettingsResourceRow> & { id: string }> = [
  {
    id: 'members',
    header: 'Members',
    size: 100,
    cell: ({ row }) => {
      const count = memberCount(row.original);
      return count === null ? '' : `${count} ${count === 1 ? 'member' : 'members'}`;
    },
  },
  {
    id: 'channels',
    header: 'Channels',
    size: 280,
    cell: ({ row }) => {
      const channels = teamChannels(row.original.spec);
      return channels.length === 0 ? <span className="text-gray-500">None</span> : <span className="whitespace-normal">{channels.join(', ')}</span>;
    },
  },
];
