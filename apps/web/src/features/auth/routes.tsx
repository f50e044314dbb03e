import type { RouteObject } from 'react-router';
import { LoginPage } from './components/login-page';

/** Identity pages; they sit outside the shell because they work without a session. */
export const authRoutes: RouteObject[] = [{ path: 'login', element: <LoginPage /> }];
