import type { ReactNode } from 'react';

/** Spec 001 §8. */
export const NO_COMPONENTS_MESSAGE = 'There are no components matching this criteria';
export const AMBIGUOUS_COMPONENT_MESSAGE = 'Response has multiple components for the id';

/** Why there are no cards to show. */
export function EmptyMessage({ children }: { children: ReactNode }) {
  return <p className="py-12 text-center text-sm text-gray-500">{children}</p>;
}
