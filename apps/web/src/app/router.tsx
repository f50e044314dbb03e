import { Suspense } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { setAppNavigator } from '@/lib/app-navigator';
import { lazyPage } from '@/lib/lazy-page';
import { agentsRoutes } from '@/features/agents/routes';
import { apiDocsRoutes } from '@/features/api-docs/routes';
import { auditRoutes } from '@/features/audit/routes';
import { authRoutes } from '@/features/auth/routes';
import { ProfileSettingsPage } from '@/features/auth/components/profile-settings-page';
import { ApiTokensCard } from '@/features/api-tokens/components/api-tokens-card';
import { catalogRoutes } from '@/features/catalog/routes';
import { connectionsRoutes } from '@/features/connections/routes';
import { eventQueueRoutes } from '@/features/event-queue/routes';
import { featureFlagsRoutes } from '@/features/feature-flags/routes';
import { healthRoutes, healthSettingsRoutes } from '@/features/health/routes';
import { incidentsRoutes } from '@/features/incidents/routes';
import { integrationsRoutes } from '@/features/integrations/routes';
import { jobsRoutes } from '@/features/jobs/routes';
import { logsRoutes } from '@/features/logs/routes';
import { notificationsRoutes } from '@/features/notifications/routes';
import { HostedModeGate } from '@/features/organizations/hosted-mode-gate';
import { organizationsRoutes } from '@/features/organizations/routes';
import { playbooksRoutes } from '@/features/playbooks/routes';
import { preferencesRoutes } from '@/features/preferences/routes';
import { topologyRoutes, topologyStandaloneRoutes } from '@/features/topology/routes';
import { usersRoutes } from '@/features/users/routes';
import { ErrorScreen } from './errors/error-screen';
import { FlowErrorScreen } from './errors/flow-error-screen';
import { NotFoundPage } from './errors/not-found-page';
import { RouteErrorBoundary } from './errors/route-error-boundary';
import { FeatureGate } from './feature-gate';
import { HomeRedirect } from './home-redirect';
import { AppShell } from './shell/app-shell';

const AgentEditorFromSearchParams = lazyPage(() =>
  import('@/features/agents/components/agent-editor-from-search-params').then((module) => module.AgentEditorFromSearchParams),
);

/**
 * The identity pages, the profile page with the API tokens card of its own feature (#19): features never import each
 * other, so the two meet here.
 */
const identityRoutes: RouteObject[] = authRoutes.map((route) =>
  route.path === 'profile-settings' ? { ...route, element: <ProfileSettingsPage extraCards={<ApiTokensCard />} /> } : route,
);

/** The health pages with the agent editor their addAgent and id parameters open; its code loads after the page. */
function HealthWithAgentEditor() {
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        <AgentEditorFromSearchParams />
      </Suspense>
    </>
  );
}

/**
 * Every route of the app. A feature adds its pages by exporting `RouteObject[]` with paths relative to the shell
 * (`settings/feature-flags`) and spreading them into the shell's children below, plus one line in `navigation.ts`.
 */
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteErrorBoundary />,
    children: [
      ...identityRoutes,
      ...organizationsRoutes,
      // The standalone topology view is embedded in other dashboards: no shell, no wait for feature flags.
      ...topologyStandaloneRoutes,
      { path: 'error', element: <ErrorScreen /> },
      { path: 'error/:id', element: <FlowErrorScreen /> },
      {
        path: '/',
        // Hosted mode's waiting screens (provisioning, organization picker) stand in front of the shell.
        element: (
          <HostedModeGate>
            <AppShell />
          </HostedModeGate>
        ),
        children: [
          {
            // Inside the shell, so a failing page keeps the sidebar and top bar.
            errorElement: <RouteErrorBoundary />,
            // The health dashboard's id and addAgent parameters open the agent editor (spec 001 §2.2). Features never import
            // each other, so the pathless route around healthRoutes joins the two here.
            children: [
              {
                // Every page below answers to the feature flag of the navigation area its path lies in.
                element: <FeatureGate />,
                children: [
                  { index: true, element: <HomeRedirect /> },
                  ...topologyRoutes,
                  { element: <HealthWithAgentEditor />, children: healthRoutes },
                  ...incidentsRoutes,
                  ...catalogRoutes,
                  ...logsRoutes,
                  ...playbooksRoutes,
                  ...connectionsRoutes,
                  ...agentsRoutes,
                  ...healthSettingsRoutes,
                  ...integrationsRoutes,
                  ...usersRoutes,
                  ...featureFlagsRoutes,
                  ...eventQueueRoutes,
                  ...jobsRoutes,
                  ...notificationsRoutes,
                  ...preferencesRoutes,
                  ...apiDocsRoutes,
                  ...auditRoutes,
                  { path: '*', element: <NotFoundPage /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Lets code outside React (guarded fetch, session check) navigate through the router instead of reloading. */
export function bindNavigatorToRouter(router: Pick<AppRouter, 'state' | 'navigate'>): () => void {
  return setAppNavigator({
    currentPath: () => `${router.state.location.pathname}${router.state.location.search}`,
    navigate: (to) => void router.navigate(to),
  });
}

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(appRoutes);
  bindNavigatorToRouter(router);
  return router;
}
