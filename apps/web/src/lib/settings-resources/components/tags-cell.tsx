import { Popover } from 'radix-ui';

export interface TagsCellProps {
  labels: Record<string, string> | null;
}

/** The first tag, and the rest behind a '+N more' popup. */
export function TagsCell({ labels }: TagsCellProps) {
  const tags = Object.entries(labels ?? {}).map(([key, value]) => `${key}: ${value}`);
  const [first, ...rest] = tags;
  if (first === undefined) return null;
  return (
    <span className="inline-flex items-center gap-1">
      <span className="truncate rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">{first}</span>
      {rest.length > 0 && (
        <Popover.Root>
          <Popover.Trigger
            onClick={(event) => event.stopPropagation()}
            onKeyDown={(event) => event.stopPropagation()}
            className="shrink-0 rounded text-xs text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
          >
            +{rest.length} more
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content sideOffset={4} className="z-50 flex max-w-xs flex-col gap-1 rounded-md bg-white p-2 shadow-lg ring-1 ring-gray-200">
              {rest.map((tag) => (
                <span key={tag} className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">
                  {tag}
                </span>
              ))}
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      )}
    </span>
  );
}
