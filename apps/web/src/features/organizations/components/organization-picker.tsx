import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Building2 } from 'lucide-react';
import { Button } from '@/components/button/button';
import { organizationsSwitchedPath } from '@/lib/auth/hosted/hosted-urls';
import { switchOrganization, type Organization } from '../api/organizations';
import { CenteredScreen } from './centered-screen';

export interface OrganizationPickerProps {
  organizations: readonly Organization[];
  /** Where to continue once an organization is chosen; the home page when null. */
  returnTo: string | null;
}

/** One button per organization; choosing one moves the session there and continues through orgs-switched. */
export function OrganizationPicker({ organizations, returnTo }: OrganizationPickerProps) {
  const navigate = useNavigate();
  const choose = useMutation({
    mutationFn: switchOrganization,
    onSuccess: () => navigate(organizationsSwitchedPath(returnTo), { replace: true }),
  });
  return (
    <ul aria-label="Organizations" className="flex flex-col gap-2">
      {organizations.map((organization) => (
        <li key={organization.id}>
          <Button
            variant="secondary"
            className="w-full justify-start"
            onClick={() => choose.mutate(organization.id)}
            disabled={choose.isPending}
            isPending={choose.isPending && choose.variables === organization.id}
          >
            <Building2 aria-hidden="true" className="size-4 text-gray-500" />
            {organization.name}
          </Button>
        </li>
      ))}
    </ul>
  );
}

export function OrganizationPickerScreen(props: OrganizationPickerProps) {
  return (
    <CenteredScreen heading="Choose an organization">
      <p className="mb-4 text-sm text-gray-600">You belong to several organizations. Choose the one to work in; you can switch later.</p>
      <OrganizationPicker {...props} />
    </CenteredScreen>
  );
}
