/** A detail page's tab trigger: an underline marks the open tab. */
export const DETAIL_TAB_CLASS =
  'border-b-2 border-transparent px-3 py-2 text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';

/** Placeholder lines while a detail page loads its record. */
export function DetailSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading" className="flex flex-col gap-3">
      {[0, 1, 2, 3].map((line) => (
        <span key={line} className="block h-8 animate-pulse rounded bg-gray-200" />
      ))}
    </div>
  );
}
