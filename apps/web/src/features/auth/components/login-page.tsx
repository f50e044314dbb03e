import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { QueryError } from '@/components/status/query-error';
import { toSafeReturnPath } from '@/lib/app-navigator';
import { authKeys } from '../api/keys';
import { getOrCreateLoginFlow, updateLoginFlow } from '../api/login-flow';
import type { FlowValues, SelfServiceFlow } from '../api/flow-types';
import { reportFlowError, useFlowErrorHandler } from '../use-flow-error-handler';
import { AuthLayout } from './auth-layout';
import { FlowForm } from './flow-form';
import { useDocumentTitle } from '@/lib/use-document-title';

type LoginKind = 'login' | 'second-factor' | 'refresh';

const HEADINGS: Record<LoginKind, string> = {
  login: 'Sign In to your account',
  'second-factor': 'Two-Factor Authentication',
  refresh: 'Confirm Action',
};

interface FlowAttempt {
  /** The flow id to reuse; taken from the address bar once, then null after a restart. */
  flowId: string | null;
  generation: number;
}

export function LoginPage() {
  useDocumentTitle('Sign in');
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const returnTo = searchParams.get('return_to');
  const refresh = searchParams.get('refresh') === 'true';
  const aal = searchParams.get('aal');
  const identifier = searchParams.get('identifier');
  const password = searchParams.get('password');
  const kind: LoginKind = aal === 'aal2' ? 'second-factor' : refresh ? 'refresh' : 'login';

  const [attempt, setAttempt] = useState<FlowAttempt>(() => ({ flowId: searchParams.get('flow'), generation: 0 }));
  // A 400 answer carries the same flow with field messages; it replaces what the query loaded.
  const [answeredFlow, setAnsweredFlow] = useState<SelfServiceFlow | null>(null);

  const flowQuery = useQuery({
    queryKey: authKeys.loginFlow({ flowId: attempt.flowId, returnTo, refresh, aal, generation: attempt.generation }),
    queryFn: () => getOrCreateLoginFlow(attempt.flowId, { returnTo, refresh, aal }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const flow = answeredFlow ?? flowQuery.data ?? null;

  const restart = useCallback(
    (options?: { dropReturnTo?: boolean }) => {
      setAnsweredFlow(null);
      setAttempt((previous) => ({ flowId: null, generation: previous.generation + 1 }));
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete('flow');
          if (options?.dropReturnTo) next.delete('return_to');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );
  const handleFlowError = useFlowErrorHandler({ restart });

  const loadError = flowQuery.error;
  useEffect(() => {
    if (loadError !== null && !handleFlowError(loadError)) reportFlowError(loadError);
  }, [loadError, handleFlowError]);

  async function handleSubmit(values: FlowValues) {
    if (flow === null) return;
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('flow', flow.id);
        // Credentials never stay in the address bar once used.
        next.delete('password');
        return next;
      },
    );
    try {
      const outcome = await updateLoginFlow(flow, values);
      if (outcome.kind === 'flow') {
        setAnsweredFlow(outcome.flow);
        return;
      }
      // Whatever was cached belonged to the previous (or no) session.
      queryClient.clear();
      navigate(toSafeReturnPath(returnTo) ?? toSafeReturnPath(flow.return_to) ?? '/', { replace: true });
    } catch (error) {
      if (!handleFlowError(error)) reportFlowError(error);
    }
  }

  const initialValues: Record<string, string> = {};
  if (identifier !== null) initialValues.identifier = identifier;
  if (password !== null) initialValues.password = password;

  return (
    <AuthLayout heading={HEADINGS[kind]}>
      <title>Sign In | Opsdeck</title>
      {flow !== null ? (
        <FlowForm
          key={`${flow.id}-${attempt.generation}`}
          flow={flow}
          onSubmit={handleSubmit}
          initialValues={initialValues}
          autoSubmit={identifier !== null && password !== null && answeredFlow === null}
        />
      ) : flowQuery.isError ? (
        <QueryError subject="The sign-in form" error={flowQuery.error} onRetry={() => restart()} />
      ) : (
        <div role="status" className="flex items-center justify-center gap-2 py-6 text-sm text-gray-500">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          Loading…
        </div>
      )}
      {kind === 'login' && (
        <p className="mt-4 text-center text-sm">
          <Link to="/recovery" className="font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
            Reset password
          </Link>
        </p>
      )}
    </AuthLayout>
  );
}
