import type { ReactNode } from 'react';

export type Fact = [term: string, value: ReactNode];

/** A detail dialog's term/value pairs, terms in one column and values wrapping beside them. */
export function FactList({ facts }: { facts: readonly Fact[] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-gray-500">{term}</dt>
          <dd className="min-w-0 break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A titled part of a detail dialog, named for screen readers by its title. */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1.5">
      <h3 className="text-sm font-semibold text-gray-900">{title}</h3>
      {children}
    </section>
  );
}
