import type { ReactNode } from 'react';
import { Layers } from 'lucide-react';

export interface CenteredCardProps {
  heading: string;
  children: ReactNode;
  /** Links under the card, such as 'Go back' or 'Sign in'. */
  footer?: ReactNode;
}

/** The logo, a heading and a card on a plain background: the look of every page shown outside the shell. */
export function CenteredCard({ heading, children, footer }: CenteredCardProps) {
  return (
    <main id="main" className="flex min-h-full items-center justify-center bg-gray-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center gap-3">
          <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white shadow">
            <Layers aria-hidden="true" className="size-6" />
          </span>
          <h1 className="text-center text-xl font-semibold text-gray-900">{heading}</h1>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">{children}</div>
        {footer !== undefined && <div className="mt-4 flex flex-wrap items-center justify-center gap-x-4 gap-y-2 text-sm">{footer}</div>}
      </div>
    </main>
  );
}
