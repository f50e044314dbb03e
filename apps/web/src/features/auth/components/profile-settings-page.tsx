import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Layers } from 'lucide-react';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { useAuthMode } from '@/lib/auth/auth-mode';
import { HostedProfile } from '@/lib/auth/hosted/hosted-profile';
import { sessionKeys } from '@/lib/auth/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import type { FlowGroup, FlowValues, SelfServiceFlow } from '../api/flow-types';
import { useSelfServiceFlow } from '../use-self-service-flow';
import { FlowForm, FlowMessages } from './flow-form';
import { FlowPlaceholder } from './flow-placeholder';

const PAGE_TITLE = 'Profile Management and Security Settings';

/** Spec 002 §9: the flow's messages disappear this long after they arrive. */
export const PROFILE_MESSAGE_TTL_MS = 10_000;

const EXTERNAL_LINK_CLASS = 'font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={EXTERNAL_LINK_CLASS}>
      {children}
    </a>
  );
}

interface SettingsCard {
  group: FlowGroup;
  title: string;
  description: ReactNode;
}

const CARDS: readonly SettingsCard[] = [
  { group: 'profile', title: 'Profile Settings', description: 'Your name and the email address you sign in with.' },
  {
    group: 'password',
    title: 'Change Password',
    description: 'Pick a new password. Once it is saved, your sessions in other browsers are signed out.',
  },
  { group: 'oidc', title: 'Manage Social Sign In', description: 'Connect or disconnect the accounts you can sign in with.' },
  {
    group: 'lookup_secret',
    title: 'Manage 2FA Backup Recovery Codes',
    description:
      'Recovery codes are for emergencies: when the device with your authenticator app or security key is lost, each code lets you sign in once. Keep them somewhere safe and offline.',
  },
  {
    group: 'totp',
    title: 'Manage 2FA TOTP Authenticator App',
    description: (
      <>
        Scan the QR code with an authenticator app, such as{' '}
        <ExternalLink href="https://support.google.com/accounts/answer/1066447">Google Authenticator</ExternalLink>,{' '}
        <ExternalLink href="https://www.microsoft.com/security/mobile-authenticator-app">Microsoft Authenticator</ExternalLink> or{' '}
        <ExternalLink href="https://1password.com/">1Password</ExternalLink>, then enter the six-digit code it shows.
      </>
    ),
  },
  {
    group: 'webauthn',
    title: 'Manage Hardware Tokens and Biometrics',
    description: 'Use a security key such as a YubiKey, or the biometrics of your device (FaceID, TouchID, Windows Hello) as a second factor.',
  },
];

function hasNodes(flow: SelfServiceFlow, group: FlowGroup): boolean {
  return flow.ui.nodes.some((node) => node.group === group);
}

/** The page around the cards: logo, Go back to return_to, the title. Shared by both sign-in modes. */
function ProfilePageFrame({ goBack, children }: { goBack: string; children: ReactNode }) {
  return (
    <main id="main" className="min-h-full bg-gray-50 px-4 py-8 sm:px-6">
      <title>{`${PAGE_TITLE} | Opsdeck`}</title>
      <div className="mx-auto w-full max-w-2xl space-y-6">
        <header className="flex items-center justify-between gap-4">
          <Link to="/" className="flex items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600" aria-label="Opsdeck home">
            <span className="flex size-9 items-center justify-center rounded-lg bg-brand-600 text-white shadow">
              <Layers aria-hidden="true" className="size-5" />
            </span>
            <span className="text-lg font-semibold text-gray-900">Opsdeck</span>
          </Link>
          <Link to={goBack} className="inline-flex items-center gap-1 text-sm font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Go back
          </Link>
        </header>
        <h1 className="text-xl font-semibold text-gray-900 sm:text-2xl">{PAGE_TITLE}</h1>
        {children}
      </div>
    </main>
  );
}

/**
 * `/profile-settings`: the signed-in person's own account. Outside the shell, like the other identity pages: the
 * recovery flow lands here with a fresh session, and the identity service (not the shell's session check) decides who
 * may see it, sending a missing session or a missing second factor to sign in and back.
 */
function FlowProfileSettingsPage({ extraCards }: { extraCards?: ReactNode }) {
  const queryClient = useQueryClient();
  const [submittedGroup, setSubmittedGroup] = useState<FlowGroup | null>(null);
  const settings = useSelfServiceFlow({
    kind: 'settings',
    returnHereAfterSignIn: true,
    // A changed name or email shows in the user menu of the shell.
    onAnswer: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
  const { flow } = settings;

  // Messages belong to one answer: each answer's messages are shown for PROFILE_MESSAGE_TTL_MS.
  const [expiredFor, setExpiredFor] = useState<SelfServiceFlow | null>(null);
  useEffect(() => {
    if (flow === null || (flow.ui.messages ?? []).length === 0) return;
    const timer = setTimeout(() => setExpiredFor(flow), PROFILE_MESSAGE_TTL_MS);
    return () => clearTimeout(timer);
  }, [flow]);
  const messages = flow !== null && flow !== expiredFor ? (flow.ui.messages ?? []) : [];

  const cards = flow === null ? [] : CARDS.filter((card) => hasNodes(flow, card.group));
  // Messages appear in the card whose form was sent, where the person is looking; before any submit, at the top.
  const messagesInCard = settings.answered && submittedGroup !== null && cards.some((card) => card.group === submittedGroup);
  const goBack = toSafeReturnPath(settings.returnTo) ?? toSafeReturnPath(flow?.return_to) ?? '/';

  function submitFrom(group: FlowGroup) {
    return (values: FlowValues) => {
      setSubmittedGroup(group);
      return settings.submit(values);
    };
  }

  return (
    <ProfilePageFrame goBack={goBack}>
      {!messagesInCard && <FlowMessages messages={messages} />}
      {flow === null ? (
        <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
          <FlowPlaceholder subject="Your settings" error={settings.loadError} onRetry={() => settings.restart()} />
        </div>
      ) : (
        cards.map((card) => (
          <section key={card.group} aria-labelledby={`settings-card-${card.group}`} className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id={`settings-card-${card.group}`} className="text-base font-semibold text-gray-900">
              {card.title}
            </h2>
            <p className="mt-1 mb-4 text-sm text-gray-600">{card.description}</p>
            {messagesInCard && submittedGroup === card.group && (
              <div className="mb-4">
                <FlowMessages messages={messages} />
              </div>
            )}
            <FlowForm
              key={`${settings.formKey}-${card.group}`}
              flow={flow}
              groups={[card.group]}
              onSubmit={submitFrom(card.group)}
              showMessages={false}
              focusFirstError={settings.answered && submittedGroup === card.group}
            />
          </section>
        ))
      )}
      {/* Only once the flow has loaded: a session still owing its second factor (a recovery of a TOTP account) is no
          principal, and another card's request answering 401 would send the person to plain sign-in instead of the
          second-factor step the flow leads to. */}
      {flow !== null && extraCards}
    </ProfilePageFrame>
  );
}

export interface ProfileSettingsPageProps {
  /** Cards of other features shown after the account's own (the API tokens card), composed in app/router.tsx. */
  extraCards?: ReactNode;
}

/** In hosted mode the provider owns the account, so the page shows what the console knows of it instead of the flow. */
export function ProfileSettingsPage({ extraCards }: ProfileSettingsPageProps = {}) {
  useDocumentTitle(PAGE_TITLE);
  const [searchParams] = useSearchParams();
  const mode = useAuthMode();
  const goBack = toSafeReturnPath(searchParams.get('return_to')) ?? '/';
  if (mode.data?.mode === 'hosted') {
    return (
      <ProfilePageFrame goBack={goBack}>
        <HostedProfile />
        {extraCards}
      </ProfilePageFrame>
    );
  }
  if (mode.isPending) {
    return (
      <ProfilePageFrame goBack={goBack}>
        <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
          <FlowPlaceholder subject="Your settings" error={null} onRetry={() => undefined} />
        </div>
      </ProfilePageFrame>
    );
  }
  return <FlowProfileSettingsPage extraCards={extraCards} />;
}
