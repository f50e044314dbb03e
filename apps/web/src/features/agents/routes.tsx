import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';

const AgentsPage = lazyPage(() => import('./components/agents-page').then((module) => module.AgentsPage));

/**
 * Spec 001 §2.6: the same page at /agents and /settings/agents. The shell's FeatureGate finds the second through its
 * Settings entry; the first lies outside every navigation entry, so it names its area here.
 */
const page = (
  <FeatureArea feature="agents" resource="agents">
    <AgentsPage />
  </FeatureArea>
);

export const agentsRoutes: RouteObject[] = [
  { path: 'agents', element: page },
  { path: 'settings/agents', element: page },
];
