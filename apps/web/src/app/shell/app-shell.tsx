import { Suspense, useId, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { isApiError } from '@/lib/api/api-error';
import { useSession } from '@/lib/auth/session';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { CommandPaletteMount } from './command-palette-mount';
import { ShellSkeleton } from './shell-skeleton';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { useIsWideScreen } from './use-is-wide-screen';
import { useRouteFocus } from './use-route-focus';

/** Statuses on which the session check has already sent the user to sign in. */
const REDIRECTING_STATUSES: ReadonlySet<number> = new Set([401, 403, 422]);

function PageLoading() {
  return (
    <p role="status" aria-busy="true" className="mt-16 text-center text-sm text-gray-500">
      Loading…
    </p>
  );
}

export function AppShell() {
  const session = useSession();
  const flags = useFeatureFlags();
  const sidebarId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const wide = useIsWideScreen();
  const location = useLocation();
  const [drawerLocation, setDrawerLocation] = useState(location);
  // Any navigation, from a drawer link or the browser's Back, closes the drawer over the page it leaves.
  if (drawerLocation !== location) {
    setDrawerLocation(location);
    setDrawerOpen(false);
  }
  const coversPage = drawerOpen && !wide;
  useRouteFocus(location.pathname);

  if (session.isError) {
    if (isApiError(session.error) && REDIRECTING_STATUSES.has(session.error.status)) return <ShellSkeleton />;
    // Spec 001 §8: every other whoami failure is the error page's business.
    throw session.error;
  }
  // Routes render only once flags are known, so a disabled area never flashes. A failed flag load (already toasted)
  // leaves every area on rather than locking the user out.
  if (session.isPending || flags.isLoading) return <ShellSkeleton />;

  return (
    <CommandPaletteMount>
      <div className="flex h-screen bg-gray-50">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
          Skip to content
        </a>
        <Sidebar id={sidebarId} drawerOpen={drawerOpen} onDrawerOpenChange={setDrawerOpen} returnFocusRef={menuButtonRef} />
        {/* Inert under the open drawer: keyboard and screen-reader users stay in the drawer until it closes. */}
        <div inert={coversPage} className="flex min-w-0 flex-1 flex-col">
          <TopBar navigationId={sidebarId} navigationOpen={coversPage} onOpenNavigation={() => setDrawerOpen(true)} menuButtonRef={menuButtonRef} />
          <main id="main" tabIndex={-1} className="min-h-0 flex-1 overflow-auto focus:outline-none">
            {/* Pages of the other areas load in their own chunks on first visit (lazy-page.ts). */}
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </CommandPaletteMount>
  );
}
