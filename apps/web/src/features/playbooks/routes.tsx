import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';

const PlaybooksPage = lazyPage(() => import('./components/list/playbooks-page').then((module) => module.PlaybooksPage));
const PlaybookPage = lazyPage(() => import('./components/list/playbook-page').then((module) => module.PlaybookPage));
const PlaybookRunsPage = lazyPage(() => import('./components/runs/playbook-runs-page').then((module) => module.PlaybookRunsPage));
const PlaybookRunPage = lazyPage(() => import('./components/runs/playbook-run-page').then((module) => module.PlaybookRunPage));

function area(page: ReactNode, resource: 'playbooks' | 'playbook_runs') {
  return (
    <FeatureArea feature="playbooks" resource={resource}>
      {page}
    </FeatureArea>
  );
}

/** The playbooks area (spec 001 §2.5); off when `playbooks.disable` is true. */
export const playbooksRoutes: RouteObject[] = [
  { path: 'playbooks', element: area(<PlaybooksPage />, 'playbooks') },
  { path: 'playbooks/runs', element: area(<PlaybookRunsPage />, 'playbook_runs') },
  { path: 'playbooks/runs/:id', element: area(<PlaybookRunPage />, 'playbook_runs') },
  { path: 'playbooks/:id', element: area(<PlaybookPage />, 'playbooks') },
];
