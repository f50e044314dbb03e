import type { RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';

const PreferencesPage = lazyPage(() => import('./preferences-page').then((module) => module.PreferencesPage));

export const preferencesRoutes: RouteObject[] = [{ path: 'preferences', element: <PreferencesPage /> }];
