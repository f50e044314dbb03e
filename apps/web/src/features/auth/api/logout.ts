import { ApiError } from '@/lib/api/api-error';
import { authRequest } from './auth-request';

export interface LogoutFlow {
  logout_token: string;
  logout_url: string;
}

export async function createLogoutFlow(): Promise<LogoutFlow> {
  const { status, body } = await authRequest('/api/auth/self-service/logout/browser');
  if (status === 200) return body as LogoutFlow;
  throw new ApiError(status, body);
}

export async function performLogout(token: string): Promise<void> {
  const { status, body } = await authRequest(`/api/auth/self-service/logout?token=${encodeURIComponent(token)}`);
  if (status >= 400) throw new ApiError(status, body);
}
