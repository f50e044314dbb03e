import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';

const AuditLogPage = lazyPage(() => import('./components/audit-log-page').then((module) => module.AuditLogPage));

export const AUDIT_PATH = '/settings/audit';

/** The shell's FeatureGate also gates the page through its Settings entry (settings.audit, read on `audit`). */
export const auditRoutes: RouteObject[] = [
  {
    path: AUDIT_PATH.slice(1),
    element: (
      <Guard resource="audit" action="read" fallback="unauthorized">
        <AuditLogPage />
      </Guard>
    ),
  },
];
