import type { PublicConnection } from '@opsdeck/shared';

/** A connection as the API returns it: secrets only as whether each is set. */
export type Connection = PublicConnection;

export type { ConnectionPage } from '@opsdeck/shared';

/**
 * What create, update and test send. A secret left out keeps the stored one, so empty secret fields are never sent.
 */
export interface ConnectionInput {
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password?: string;
  certificate?: string;
  insecure_tls: boolean;
  properties: Record<string, string>;
  secret_properties?: Record<string, string>;
}

export type { Person } from '@/lib/api/people';
