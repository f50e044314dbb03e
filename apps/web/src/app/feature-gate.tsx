import { Outlet, useLocation } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { primaryNavigation, settingsNavigation, type NavigationEntry } from './navigation';

const AREAS: readonly NavigationEntry[] = [...primaryNavigation, ...settingsNavigation];

/**
 * The navigation entry whose area a path belongs to: the entry's own page and every page below it. The longest
 * match wins, so a settings page nested under another entry's path still answers to its own flag.
 */
export function areaForPath(pathname: string, entries: readonly NavigationEntry[] = AREAS): NavigationEntry | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  let best: NavigationEntry | undefined;
  for (const entry of entries) {
    if (path !== entry.path && !path.startsWith(`${entry.path}/`)) continue;
    if (best === undefined || entry.path.length > best.path.length) best = entry;
  }
  return best;
}

/**
 * Wraps every page of the shell: a page inside an area the navigation lists answers to that area's feature flag and
 * read permission, whatever its own route remembered to declare, so a switched-off area is closed by URL too.
 */
export function FeatureGate() {
  const { pathname } = useLocation();
  const area = areaForPath(pathname);
  if (area === undefined) return <Outlet />;
  return (
    <FeatureArea feature={area.feature} resource={area.resource}>
      <Outlet />
    </FeatureArea>
  );
}
