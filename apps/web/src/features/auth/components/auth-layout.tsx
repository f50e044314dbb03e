import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The centred card around every identity page. */
export { CenteredCard as AuthLayout } from '@/components/centered-card/centered-card';

/** A link under an identity card. */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
      {children}
    </Link>
  );
}
