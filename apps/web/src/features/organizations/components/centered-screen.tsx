import type { ReactNode } from 'react';

/** The card on a plain background that the waiting screens of hosted mode share with the sign-in pages' look. */
export { CenteredCard as CenteredScreen } from '@/components/centered-card/centered-card';

export function Waiting({ children }: { children: ReactNode }) {
  return (
    <p role="status" aria-busy="true" className="py-4 text-center text-sm text-gray-600">
      {children}
    </p>
  );
}
