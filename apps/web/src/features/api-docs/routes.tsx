import type { RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';

const ApiDocsPage = lazyPage(() => import('./components/api-docs-page').then((module) => module.ApiDocsPage));
const DocsIndexPage = lazyPage(() => import('./components/docs-index-page').then((module) => module.DocsIndexPage));
const ProjectDocPage = lazyPage(() => import('./components/project-doc-page').then((module) => module.ProjectDocPage));

/** Help's pages: open to every signed-in user, like the OpenAPI document itself. */
export const apiDocsRoutes: RouteObject[] = [
  { path: 'docs', element: <DocsIndexPage /> },
  { path: 'docs/api', element: <ApiDocsPage /> },
  { path: 'docs/*', element: <ProjectDocPage /> },
];
