import type { ReactNode } from 'react';
import { Layers } from 'lucide-react';

export interface AuthLayoutProps {
  heading: string;
  children: ReactNode;
}

/** The centred card around every identity page. */
export function AuthLayout({ heading, children }: AuthLayoutProps) {
  return (
    <main className="flex min-h-full items-center justify-center bg-gray-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center gap-3">
          <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white shadow">
            <Layers aria-hidden="true" className="size-6" />
          </span>
          <h1 className="text-center text-xl font-semibold text-gray-900">{heading}</h1>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">{children}</div>
      </div>
    </main>
  );
}
