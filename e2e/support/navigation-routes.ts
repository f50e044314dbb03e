import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface NavigationRoute {
  label: string;
  path: string;
}

export interface NavigationRoutes {
  primary: NavigationRoute[];
  settings: NavigationRoute[];
}

const NAVIGATION_MODULE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../apps/web/src/app/navigation.ts');

function routesOf(value: unknown, name: string): NavigationRoute[] {
  if (!Array.isArray(value)) throw new Error(`apps/web/src/app/navigation.ts no longer exports ${name} as a list`);
  return value.map((entry: unknown) => {
    const { label, path: route } = (entry ?? {}) as { label?: unknown; path?: unknown };
    if (typeof label !== 'string' || typeof route !== 'string') throw new Error(`an entry of ${name} has no string label and path`);
    return { label, path: route };
  });
}

/**
 * The sidebar's entries, read from the web app's own navigation definition, so an area that ships its line there is
 * crawled without anyone touching the spec. Loaded at run time rather than imported: a static import would pull the
 * web app's path aliases and DOM types into the e2e typecheck, while at run time the module's only value imports are
 * its icons.
 */
export async function loadNavigationRoutes(): Promise<NavigationRoutes> {
  const navigation = (await import(pathToFileURL(NAVIGATION_MODULE).href)) as Record<string, unknown>;
  return { primary: routesOf(navigation.primaryNavigation, 'primaryNavigation'), settings: routesOf(navigation.settingsNavigation, 'settingsNavigation') };
}
