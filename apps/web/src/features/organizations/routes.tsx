import type { RouteObject } from 'react-router';
import { AuthStateCheckerPage } from './pages/auth-state-checker-page';
import { OrgsSwitchedPage } from './pages/orgs-switched-page';
import { SelectOrganizationPage } from './pages/select-organization-page';

/** Hosted mode's own pages; outside the shell, since each of them runs before the shell may render. */
export const organizationsRoutes: RouteObject[] = [
  { path: 'auth-state-checker', element: <AuthStateCheckerPage /> },
  { path: 'organizations/select', element: <SelectOrganizationPage /> },
  { path: 'organizations/orgs-switched', element: <OrgsSwitchedPage /> },
];
