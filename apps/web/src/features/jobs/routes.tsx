import type { RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';

const JobHistoryPage = lazyPage(() => import('./components/job-history-page').then((module) => module.JobHistoryPage));

/** The shell's FeatureGate gates /settings/jobs through its Settings entry (settings.job_history, read on its resource). */
export const jobsRoutes: RouteObject[] = [{ path: 'settings/jobs', element: <JobHistoryPage /> }];
