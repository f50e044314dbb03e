import { Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';

const TopologyPage = lazyPage(() => import('./components/topology-page').then((module) => module.TopologyPage));
const TopologyStandalonePage = lazyPage(() => import('./components/topology-standalone-page').then((module) => module.TopologyStandalonePage));

function topologyArea() {
  return (
    <FeatureArea feature="topology" resource="topologies">
      <TopologyPage />
    </FeatureArea>
  );
}

/** The topology dashboard, inside the shell; the area is off when `topology.disable` is true. */
export const topologyRoutes: RouteObject[] = [
  { path: 'topology', element: topologyArea() },
  { path: 'topology/:id', element: topologyArea() },
];

/**
 * /view/topology/{id} sits outside the shell and does not wait for feature flags (spec 001 §2.1), but still needs a
 * signed-in user with read on topologies (spec 001 §6): the session check sends others to sign in.
 */
export const topologyStandaloneRoutes: RouteObject[] = [
  {
    path: 'view/topology/:id',
    element: (
      <Guard resource="topologies" action="read" fallback="unauthorized">
        {/* No shell here to hold the Suspense boundary the lazy page needs. */}
        <Suspense fallback={null}>
          <TopologyStandalonePage />
        </Suspense>
      </Guard>
    ),
  },
];
