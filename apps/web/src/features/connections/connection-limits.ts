import type { ConnectionFieldPath } from './connection-type-catalog';

/** The limits of the server's connection schema (apps/server connections-plugin.ts), checked before a form is sent. */
export const CONNECTION_LIMITS = {
  name: 255,
  namespace: 255,
  url: 4096,
  username: 1024,
  secret: 65536,
  property: 4096,
} as const;

/** The longest text a field of a connection form may hold; null for a field that holds no text. */
export function connectionFieldMaxLength(path: ConnectionFieldPath): number | null {
  if (path === 'url') return CONNECTION_LIMITS.url;
  if (path === 'username') return CONNECTION_LIMITS.username;
  if (path === 'password' || path === 'certificate' || path.startsWith('secret_properties.')) return CONNECTION_LIMITS.secret;
  if (path.startsWith('properties.')) return CONNECTION_LIMITS.property;
  return null;
}
