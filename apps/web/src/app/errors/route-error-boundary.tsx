import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorFallback } from './error-fallback';
import { NotFoundPage } from './not-found-page';

/** The router's `errorElement`: render and loader errors below it end here. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorFallback error={error} />;
}
