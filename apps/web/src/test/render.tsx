import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { AppToaster } from '@/components/toast/app-toaster';

/** A query client that fails at once: a test of an error state must not wait out the app's retries. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export interface RenderOptions {
  /** The URL the memory router starts at. */
  path?: string;
  queryClient?: QueryClient;
  /** Mounts the app's toaster beside the element, for tests that read toasts. */
  toaster?: boolean;
}

/** Renders `ui` inside a fresh query client and a memory router at `path`, as a page sees the app around it. */
export function renderWithProviders(ui: ReactNode, { path = '/', queryClient = createTestQueryClient(), toaster = false }: RenderOptions = {}) {
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      {toaster && <AppToaster />}
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** Renders a feature's routes at `path`, returning the router so a test can read where navigation went. */
export function renderRoutes(routes: RouteObject[], path: string, { queryClient = createTestQueryClient(), toaster = false }: Omit<RenderOptions, 'path'> = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {toaster && <AppToaster />}
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}
