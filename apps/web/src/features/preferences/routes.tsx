import type { RouteObject } from 'react-router';
import { PreferencesPage } from './preferences-page';

export const preferencesRoutes: RouteObject[] = [{ path: 'preferences', element: <PreferencesPage /> }];
