import { Fragment } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { useAuthMode } from '@/lib/auth/auth-mode';
import { HostedSignIn } from '@/lib/auth/hosted/hosted-sign-in';
import { useDocumentTitle } from '@/lib/use-document-title';
import type { FlowGroup, SelfServiceFlow } from '../api/flow-types';
import { isLoginFlowKey } from '../api/keys';
import { continueWithRedirect, updateLoginFlow } from '../api/login-flow';
import { useSelfServiceFlow } from '../use-self-service-flow';
import { AuthLayout, AuthLink } from './auth-layout';
import { FlowForm, FlowMessages } from './flow-form';
import { FlowPlaceholder } from './flow-placeholder';

type LoginKind = 'login' | 'second-factor' | 'refresh';

const HEADINGS: Record<LoginKind, string> = {
  login: 'Sign In to your account',
  'second-factor': 'Two-Factor Authentication',
  refresh: 'Confirm Action',
};

/** The flow says what it is once loaded; until then the address does. */
function loginKind(flow: SelfServiceFlow | null, aal: string | null, refresh: boolean): LoginKind {
  if (flow !== null) {
    if (flow.requested_aal === 'aal2') return 'second-factor';
    if (flow.refresh === true) return 'refresh';
    return 'login';
  }
  return aal === 'aal2' ? 'second-factor' : refresh ? 'refresh' : 'login';
}

/** The methods a flow offers (password; or totp, lookup_secret, webauthn at the second step), in the flow's order. */
function methodGroups(flow: SelfServiceFlow): FlowGroup[] {
  const groups: FlowGroup[] = [];
  for (const node of flow.ui.nodes) if (node.group !== 'default' && !groups.includes(node.group)) groups.push(node.group);
  return groups;
}

/**
 * Hosted mode signs in at the OpenID Connect provider instead of with a flow (spec 002 §2.3). The mode is awaited, so
 * no flow is started that hosted mode would refuse.
 */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  const mode = useAuthMode();
  if (mode.isPending) {
    return (
      <AuthLayout heading={HEADINGS[loginKind(null, searchParams.get('aal'), searchParams.get('refresh') === 'true')]}>
        <FlowPlaceholder subject="The sign-in form" error={null} onRetry={() => undefined} />
      </AuthLayout>
    );
  }
  if (mode.data?.mode !== 'hosted') return <FlowLoginPage />;
  return (
    <AuthLayout heading={HEADINGS.login}>
      <title>Sign In | Opsdeck</title>
      <HostedSignIn />
    </AuthLayout>
  );
}

function FlowLoginPage() {
  useDocumentTitle('Sign in');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const registrationEnabled = useAuthMode().data?.registration_enabled === true;
  const returnTo = searchParams.get('return_to');
  const refresh = searchParams.get('refresh') === 'true';
  const aal = searchParams.get('aal');
  const identifier = searchParams.get('identifier');
  const password = searchParams.get('password');

  const login = useSelfServiceFlow({
    kind: 'login',
    params: { refresh: refresh ? 'true' : null, aal },
    // Spec 002 §4: an invalid login flow id is replaced by a new flow rather than reported.
    replaceUnusableFlow: true,
    // Credentials never stay in the address bar once used.
    dropOnSubmit: ['password'],
    send: updateLoginFlow,
    // The second step and the re-authentication belong to a session; without one (it ended, or the address was
    // bookmarked) the person starts a plain sign-in, still headed for return_to. Restarting would only ask again.
    onSessionInactive: () => {
      const query = returnTo === null ? '' : `?${new URLSearchParams({ return_to: returnTo }).toString()}`;
      navigate(`/login${query}`, { replace: true });
    },
    onComplete: (body, flow) => {
      // Whatever was cached belonged to the previous (or no) session. The login flow itself stays: this page still
      // observes it until the navigation below unmounts it, and a cleared flow would be fetched again with the new
      // session, which the identity service answers with a 400 (it goes when the page does: gcTime 0).
      queryClient.removeQueries({ predicate: (query) => !isLoginFlowKey(query.queryKey) });
      // A person with a second factor holds a first-step session now; the service names the second step, which keeps
      // the return_to. (Were it not named, the next session check would send them there as well.)
      const nextStep = toSafeReturnPath(continueWithRedirect(body));
      navigate(nextStep ?? toSafeReturnPath(returnTo) ?? toSafeReturnPath(flow.return_to) ?? '/', { replace: true });
    },
  });
  const { flow } = login;
  const kind = loginKind(flow, aal, refresh);

  const initialValues: Record<string, string> = {};
  if (identifier !== null) initialValues.identifier = identifier;
  if (password !== null) initialValues.password = password;

  const groups = flow === null ? [] : methodGroups(flow);
  const registrationPath = returnTo === null ? '/registration' : `/registration?${new URLSearchParams({ return_to: returnTo }).toString()}`;

  return (
    <AuthLayout
      heading={HEADINGS[kind]}
      footer={
        kind === 'login' ? (
          <>
            <AuthLink to="/recovery">Reset password</AuthLink>
            {registrationEnabled && <AuthLink to={registrationPath}>Create account</AuthLink>}
          </>
        ) : undefined
      }
    >
      <title>Sign In | Opsdeck</title>
      {flow === null ? (
        <FlowPlaceholder subject="The sign-in form" error={login.loadError} onRetry={() => login.restart()} />
      ) : groups.length <= 1 ? (
        <FlowForm
          key={login.formKey}
          flow={flow}
          onSubmit={login.submit}
          initialValues={initialValues}
          autoSubmit={identifier !== null && password !== null && !login.answered}
          focusFirstError={login.answered}
        />
      ) : (
        // One form per method, so Enter in the code field sends that method and not the first button of the page.
        <div className="space-y-5">
          <FlowMessages messages={flow.ui.messages} />
          {groups.map((group, index) => (
            <Fragment key={group}>
              {index > 0 && (
                <p className="flex items-center gap-3 text-xs text-gray-500 uppercase before:h-px before:flex-1 before:bg-gray-200 after:h-px after:flex-1 after:bg-gray-200">
                  or
                </p>
              )}
              <FlowForm key={`${login.formKey}-${group}`} flow={flow} groups={[group]} onSubmit={login.submit} showMessages={false} focusFirstError={login.answered} />
            </Fragment>
          ))}
        </div>
      )}
    </AuthLayout>
  );
}
