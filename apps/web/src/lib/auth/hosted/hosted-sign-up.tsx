import { Link, useSearchParams } from 'react-router';
import { UserPlus } from 'lucide-react';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { providerButtonClass, useProviderName } from './hosted-sign-in';
import { providerSignInUrl } from './hosted-urls';

/**
 * The registration page of hosted mode: accounts are made at the provider, which is asked for its sign-up page, and
 * the new person comes back signed in to `redirectUrl` (or `return_to`) when one is given, else to the home page.
 */
export function HostedSignUp() {
  const [searchParams] = useSearchParams();
  const provider = useProviderName();
  const returnTo = toSafeReturnPath(searchParams.get('redirectUrl')) ?? toSafeReturnPath(searchParams.get('return_to'));
  const signInQuery = returnTo === null ? '' : `?${new URLSearchParams({ return_to: returnTo }).toString()}`;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-gray-600">{`Accounts for this console are created at ${provider}.`}</p>
      <a href={providerSignInUrl(returnTo, { signUp: true })} className={providerButtonClass}>
        <UserPlus aria-hidden="true" className="size-4" />
        {`Sign up with ${provider}`}
      </a>
      <p className="text-center text-sm">
        <Link to={`/login${signInQuery}`} className="font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
          Sign in
        </Link>
      </p>
    </div>
  );
}
