import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { ORGANIZATIONS_SWITCHED_PATH } from '@/lib/auth/hosted/hosted-urls';
import { useDocumentTitle } from '@/lib/use-document-title';
import { Waiting } from '../components/centered-screen';

/** `/organizations/orgs-switched`: after a switch nothing cached may survive, since all of it was the other one's. */
export function OrgsSwitchedPage() {
  useDocumentTitle('Organization switched');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const asked = toSafeReturnPath(searchParams.get('return_to'));
  const returnTo = asked === null || asked.startsWith(ORGANIZATIONS_SWITCHED_PATH) ? '/' : asked;
  useEffect(() => {
    queryClient.clear();
    navigate(returnTo, { replace: true });
  }, [queryClient, navigate, returnTo]);
  return <Waiting>Switching organization…</Waiting>;
}
