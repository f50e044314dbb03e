import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { QueryError } from '@/components/status/query-error';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { useDocumentTitle } from '@/lib/use-document-title';
import { fetchOrganizations, needsChoice, organizationKeys } from '../api/organizations';
import { CenteredScreen, Waiting } from '../components/centered-screen';
import { OrganizationPickerScreen } from '../components/organization-picker';

/**
 * `/organizations/select`: where the server sends a person with several organizations right after signing in. A
 * person who has nothing to choose (one organization, or a choice already made) goes straight on.
 */
export function SelectOrganizationPage() {
  useDocumentTitle('Choose an organization');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = toSafeReturnPath(searchParams.get('return_to'));
  const organizations = useQuery({ queryKey: organizationKeys.mine(), queryFn: ({ signal }) => fetchOrganizations(signal), retry: false });
  const nothingToChoose = organizations.data !== undefined && !needsChoice(organizations.data);
  useEffect(() => {
    if (nothingToChoose) navigate(returnTo ?? '/', { replace: true });
  }, [nothingToChoose, navigate, returnTo]);

  if (organizations.isError) {
    return (
      <CenteredScreen heading="Choose an organization">
        <QueryError subject="Your organizations" error={organizations.error} onRetry={() => void organizations.refetch()} />
      </CenteredScreen>
    );
  }
  if (organizations.data === undefined || nothingToChoose) return <Waiting>Loading your organizations…</Waiting>;
  return <OrganizationPickerScreen organizations={organizations.data.organizations} returnTo={returnTo} />;
}
