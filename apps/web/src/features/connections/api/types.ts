/**
 * A connection as the API returns it (spec 002 §3). Secrets are never sent back: only whether each one is set.
 */
export interface Connection {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  insecure_tls: boolean;
  properties: Record<string, string>;
  password_set: boolean;
  certificate_set: boolean;
  secret_properties_set: string[];
  source: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectionPage {
  data: Connection[];
  total: number;
}

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
