/**
 * A connection as the API returns it (spec 002 §3); the server builds it, the web reads it. Secrets are never sent
 * back: only whether each one is set.
 */
export interface PublicConnection {
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
