import { useSearchParams } from 'react-router';
import { LogIn, TriangleAlert } from 'lucide-react';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { useAuthMode } from '../auth-mode';
import { providerSignInUrl, SIGN_IN_ERROR_PARAM } from './hosted-urls';

const FALLBACK_PROVIDER = 'your identity provider';

/** Why the last sign-in came back refused (server: auth/oidc/hosted-errors.ts), in the person's terms. */
function refusalText(code: string, provider: string): string {
  switch (code) {
    case 'access_denied':
      return `The sign-in was cancelled at ${provider}.`;
    case 'sign_in_expired':
      return 'The sign-in took too long or was started in another browser. Please sign in again.';
    case 'provider_unavailable':
      return `${provider} could not be reached. Please try again in a moment.`;
    case 'email_missing':
      return `${provider} did not share an email address for your account, and Opsdeck needs one to know who you are.`;
    case 'email_unverified':
      return `Your email address is not verified at ${provider} yet. Verify it there, then sign in again.`;
    case 'identity_inactive':
      return 'Your Opsdeck account is deactivated. Ask an administrator to activate it.';
    case 'identity_deleted':
      return 'Your Opsdeck account was removed. Ask an administrator for access.';
    default:
      return `The answer from ${provider} could not be verified. Please sign in again.`;
  }
}

export const providerButtonClass =
  'flex w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

export function useProviderName(): string {
  return useAuthMode().data?.provider_name ?? FALLBACK_PROVIDER;
}

/**
 * The sign-in of hosted mode: one way in, through the provider. A plain link, because the server answers it with a
 * redirect to the provider's page, which needs a full page load rather than a client-side navigation.
 */
export function HostedSignIn() {
  const [searchParams] = useSearchParams();
  const provider = useProviderName();
  const refusal = searchParams.get(SIGN_IN_ERROR_PARAM);
  const returnTo = toSafeReturnPath(searchParams.get('return_to'));
  return (
    <div className="flex flex-col gap-4">
      {refusal !== null && (
        <p role="alert" className="flex gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {refusalText(refusal, provider)}
        </p>
      )}
      <a href={providerSignInUrl(returnTo)} className={providerButtonClass}>
        <LogIn aria-hidden="true" className="size-4" />
        {`Sign in with ${provider}`}
      </a>
    </div>
  );
}
