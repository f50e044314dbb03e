import { formatDate, formatRelativeTime } from '@opsdeck/shared';

/** '5m ago', with the full date on hover. */
export function RelativeTime({ at }: { at: string | null }) {
  if (at === null) return <>—</>;
  return (
    <time dateTime={at} title={formatDate(at)} className="shrink-0 text-xs text-gray-500">
      {formatRelativeTime(at)} ago
    </time>
  );
}
