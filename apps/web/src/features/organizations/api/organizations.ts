import { useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';

export interface Organization {
  id: string;
  name: string;
}

/** GET /api/auth/organizations: the person's organizations as the provider lists them, and the session's current one. */
export interface Organizations {
  organizations: Organization[];
  current: Organization | null;
}

export const organizationKeys = {
  all: ['organizations'] as const,
  mine: () => [...organizationKeys.all, 'mine'] as const,
};

export function fetchOrganizations(signal?: AbortSignal): Promise<Organizations> {
  return requestJson<Organizations>('/api/auth/organizations', { signal });
}

/** Refused with 403 (and a toast) for an organization that is not the person's. */
export function switchOrganization(id: string): Promise<Organizations> {
  return requestJson<Organizations>('/api/auth/organizations/switch', { method: 'POST', json: { id } });
}

/** A choice is needed when the person belongs to several organizations and the session is in none of them. */
export function needsChoice(organizations: Organizations): boolean {
  return organizations.current === null && organizations.organizations.length > 1;
}

/** Only hosted sessions have organizations; the query stays idle for everyone else. */
export function useOrganizations(enabled: boolean) {
  return useQuery({
    queryKey: organizationKeys.mine(),
    queryFn: ({ signal }) => fetchOrganizations(signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}
