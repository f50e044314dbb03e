import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { useAuthMode } from '@/lib/auth/auth-mode';
import { HostedSignUp } from '@/lib/auth/hosted/hosted-sign-up';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useSelfServiceFlow } from '../use-self-service-flow';
import { AuthLayout, AuthLink } from './auth-layout';
import { FlowForm } from './flow-form';
import { FlowPlaceholder } from './flow-placeholder';

function FlowRegistrationPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const returnTo = searchParams.get('return_to');

  const registration = useSelfServiceFlow({
    kind: 'registration',
    params: { after_verification_return_to: searchParams.get('after_verification_return_to') },
    onComplete: (_body, flow) => {
      // The new account is signed in; nothing cached from before may outlive that.
      queryClient.clear();
      navigate(toSafeReturnPath(flow.return_to) ?? toSafeReturnPath(returnTo) ?? '/', { replace: true });
    },
  });
  const { flow } = registration;
  const signInPath = returnTo === null ? '/login' : `/login?${new URLSearchParams({ return_to: returnTo }).toString()}`;

  return (
    <AuthLayout heading="Create account" footer={<AuthLink to={signInPath}>Sign in</AuthLink>}>
      <title>Register | Opsdeck</title>
      {flow === null ? (
        <FlowPlaceholder subject="The registration form" error={registration.loadError} onRetry={() => registration.restart()} />
      ) : (
        <FlowForm key={registration.formKey} flow={flow} onSubmit={registration.submit} focusFirstError={registration.answered} />
      )}
    </AuthLayout>
  );
}

/**
 * `/registration`: a new account with a password; the identity service mails a verification code right after. In
 * hosted mode accounts are made at the provider, whose sign-up this page sends people to.
 */
export function RegistrationPage() {
  useDocumentTitle('Register');
  const mode = useAuthMode();
  if (mode.data?.mode === 'hosted') {
    return (
      <AuthLayout heading="Create account">
        <title>Register | Opsdeck</title>
        <HostedSignUp />
      </AuthLayout>
    );
  }
  if (mode.isPending) {
    return (
      <AuthLayout heading="Create account">
        <FlowPlaceholder subject="The registration form" error={null} onRetry={() => undefined} />
      </AuthLayout>
    );
  }
  return <FlowRegistrationPage />;
}
