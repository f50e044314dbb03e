import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Dropdown } from '@/components/dropdown/dropdown';
import { organizationsSwitchedPath } from '@/lib/auth/hosted/hosted-urls';
import { isHostedSession, useSession } from '@/lib/auth/session';
import { switchOrganization, useOrganizations } from '../api/organizations';

/**
 * Moves the session to another of the person's organizations (spec 000, error screens). Shows nothing outside hosted
 * mode or for a person with fewer than two organizations. Organizations are created at the provider, not here.
 */
export function OrganizationSwitcher() {
  const navigate = useNavigate();
  const session = useSession();
  const hosted = session.data !== undefined && isHostedSession(session.data);
  const organizations = useOrganizations(hosted);
  const change = useMutation({
    mutationFn: switchOrganization,
    // The page the switch was made from belonged to the other organization; the new one starts from home.
    onSuccess: () => navigate(organizationsSwitchedPath(null)),
  });
  const list = organizations.data?.organizations ?? [];
  if (!hosted || list.length < 2) return null;
  return (
    <Dropdown
      label="Organization"
      placeholder="Choose an organization"
      options={list.map((organization) => ({ value: organization.id, label: organization.name }))}
      value={organizations.data?.current?.id}
      disabled={change.isPending}
      onChange={(id) => change.mutate(id)}
    />
  );
}
