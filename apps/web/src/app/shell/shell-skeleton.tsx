/** The whole shell's placeholder while the session and feature flags load. */
export function ShellSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading" className="flex h-screen">
      <div className="palette-light flex w-60 shrink-0 flex-col gap-3 bg-gray-900 p-4 max-lg:hidden">
        <div className="h-8 w-28 animate-pulse rounded bg-gray-700" />
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="h-6 animate-pulse rounded bg-gray-800" />
        ))}
      </div>
      <div className="flex flex-1 flex-col">
        <div className="flex h-14 items-center justify-end gap-2 border-b border-gray-200 bg-white px-4">
          <div className="size-8 animate-pulse rounded-md bg-gray-200" />
          <div className="size-8 animate-pulse rounded-md bg-gray-200" />
          <div className="size-9 animate-pulse rounded-full bg-gray-200" />
        </div>
        <div className="space-y-4 p-6">
          <div className="h-7 w-48 animate-pulse rounded bg-gray-200" />
          <div className="h-64 animate-pulse rounded-lg bg-gray-200" />
        </div>
      </div>
      <span className="sr-only">Loading…</span>
    </div>
  );
}
