import { useProviderName } from './hosted-sign-in';
import { sessionDisplayName, useSession } from '../session';

/**
 * The profile page of hosted mode: the provider owns the name, the address and the password, so the console only
 * shows what it last received from there. Changes made at the provider arrive with the next sign-in.
 */
export function HostedProfile() {
  const session = useSession();
  const provider = useProviderName();
  if (session.data === undefined) return null;
  const email = session.data.identity.traits.email ?? session.data.person.email ?? '—';
  return (
    <section aria-labelledby="hosted-profile-heading" className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h2 id="hosted-profile-heading" className="text-base font-semibold text-gray-900">
        Profile Settings
      </h2>
      <dl className="mt-4 grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
        <dt className="text-gray-500">Name</dt>
        <dd className="text-gray-900">{sessionDisplayName(session.data)}</dd>
        <dt className="text-gray-500">Email</dt>
        <dd className="text-gray-900">{email}</dd>
      </dl>
      <p className="mt-4 text-sm text-gray-600">
        {`Your name, email address, password and second factors are managed at ${provider}; changes made there appear here after your next sign-in.`}
      </p>
    </section>
  );
}
