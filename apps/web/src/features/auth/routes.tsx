import type { RouteObject } from 'react-router';
import { LoginPage } from './components/login-page';
import { ProfileSettingsPage } from './components/profile-settings-page';
import { RecoveryPage } from './components/recovery-page';
import { RegistrationPage } from './components/registration-page';
import { VerificationPage } from './components/verification-page';

/**
 * Identity pages; they sit outside the shell because they work without a session, or (profile settings) because the
 * identity service, not the shell's session check, decides who may use them.
 */
export const authRoutes: RouteObject[] = [
  { path: 'login', element: <LoginPage /> },
  { path: 'registration', element: <RegistrationPage /> },
  { path: 'recovery', element: <RecoveryPage /> },
  { path: 'verification', element: <VerificationPage /> },
  { path: 'profile-settings', element: <ProfileSettingsPage /> },
];
