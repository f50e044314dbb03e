import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { appRoutes, bindNavigatorToRouter } from '@/app/router';
import { createTestQueryClient } from './render';

/**
 * The whole app (shell, providers, every route) at `path`, for tests of navigation and the shell; `unbind` detaches
 * the app's navigator from this router. Kept apart from render.tsx so that a feature's tests do not load every other
 * feature.
 */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const unbind = bindNavigatorToRouter(router);
  const result = render(
    <AppProviders queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, unbind };
}
