import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error';
import type { FlowKind, FlowValues, SelfServiceFlow } from './api/flow-types';
import { authKeys } from './api/keys';
import { createBrowserFlow, getFlow, submitFlow, type FlowOutcome } from './api/self-service-flow';
import { reportFlowError, useFlowErrorHandler } from './use-flow-error-handler';

/** Whether loading failed while reading the flow named in the address or while creating a new one. */
export type FlowLoadPhase = 'fetch' | 'create';

export interface SelfServiceFlowOptions {
  kind: FlowKind;
  /** Creation parameters besides return_to; a change of them starts a new flow. */
  params?: Readonly<Record<string, string | null>>;
  /** A flow id in the address that cannot be read (unknown, expired, another browser's) is replaced by a new flow. */
  replaceUnusableFlow?: boolean;
  /** Sign-in asked for by the identity service comes back to this page and its flow (the settings page). */
  returnHereAfterSignIn?: boolean;
  /** Address parameters dropped once the form is sent, such as a password prefilled from the address bar. */
  dropOnSubmit?: readonly string[];
  /** Sends the form; the generic JSON submit when omitted. */
  send?: (flow: SelfServiceFlow, values: FlowValues) => Promise<FlowOutcome>;
  /** Handles a load failure before the rules of spec 002 §8; returns true when it did. */
  onLoadError?: (error: unknown, phase: FlowLoadPhase) => boolean;
  /** Replaces the answer of spec 002 §8 to a missing session (restart here, or sign in and come back). */
  onSessionInactive?: () => void;
  /** The flow ended with another body than a flow (a registration's or sign-in's session). */
  onComplete?: (body: unknown, flow: SelfServiceFlow) => void;
  /** A submit was answered with the flow again: the next step, a success, or field errors. */
  onAnswer?: (flow: SelfServiceFlow) => void;
}

export interface SelfServiceFlowState {
  flow: SelfServiceFlow | null;
  /** Changes whenever the held flow is replaced, so forms built from it remount with its values. */
  formKey: string;
  /** True once a submit answer replaced the loaded flow. */
  answered: boolean;
  loadError: Error | null;
  /** The return_to of the address the page opened with, unless the identity service refused it. */
  returnTo: string | null;
  restart(options?: { dropReturnTo?: boolean }): void;
  submit(values: FlowValues): Promise<void>;
}

interface FlowAttempt {
  /** The flow id to load; taken from the address once, then null after every restart. */
  flowId: string | null;
  /**
   * The return_to new flows are created with. Held here rather than read from the address, which the router updates a
   * render later: a restart that drops a refused return_to must not create one more flow with it.
   */
  returnTo: string | null;
  generation: number;
  /** The creation parameters the attempt was made with. */
  paramsHash: string;
}

interface HeldAnswer {
  /** The query the answer belongs to: a restart or new parameters make it stale. */
  queryHash: string;
  flow: SelfServiceFlow;
  sequence: number;
}

const NO_PARAMS: Readonly<Record<string, string | null>> = {};

async function loadFlow(kind: FlowKind, attempt: FlowAttempt, params: Readonly<Record<string, string | null>>, replaceUnusable: boolean, phase: { current: FlowLoadPhase }): Promise<SelfServiceFlow> {
  if (attempt.flowId !== null) {
    phase.current = 'fetch';
    try {
      return await getFlow(kind, attempt.flowId);
    } catch (error) {
      if (!(replaceUnusable && error instanceof ApiError && error.status >= 400 && error.status < 500)) throw error;
    }
  }
  phase.current = 'create';
  return createBrowserFlow(kind, { returnTo: attempt.returnTo, params });
}

/**
 * The life of a flow page (spec 002 §4): with no flow held, the flow named by the `flow` parameter is read, else a new
 * browser flow is created with the page's return_to; a submit puts the flow id into the address (no reload), and its
 * answer replaces the held flow. Errors go through the rules of §8.
 */
export function useSelfServiceFlow(options: SelfServiceFlowOptions): SelfServiceFlowState {
  const { kind, params = NO_PARAMS, replaceUnusableFlow = false, returnHereAfterSignIn = false } = options;
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const paramsHash = JSON.stringify(params);
  const [attempt, setAttempt] = useState<FlowAttempt>(() => ({
    flowId: searchParams.get('flow'),
    returnTo: searchParams.get('return_to'),
    generation: 0,
    paramsHash,
  }));
  if (attempt.paramsHash !== paramsHash) {
    // The page was sent to itself with other creation parameters (a sign-in moving on to its second step, with a
    // return_to of its own): the held flow is of the old kind, so a new one is made from the new address.
    setAttempt({ flowId: null, returnTo: searchParams.get('return_to'), generation: attempt.generation + 1, paramsHash });
  }
  const [answer, setAnswer] = useState<HeldAnswer | null>(null);
  const phaseRef = useRef<FlowLoadPhase>('create');

  // The callbacks are read when they are needed, so a page passing inline functions does not reload the flow.
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const queryKey = authKeys.flow(kind, { flowId: attempt.flowId, returnTo: attempt.returnTo, params, generation: attempt.generation });
  const queryHash = JSON.stringify(queryKey);
  const flowQuery = useQuery({
    queryKey,
    queryFn: () => loadFlow(kind, attempt, params, replaceUnusableFlow, phaseRef),
    // A flow is single-use state of the identity service: never refetched behind the form's back, never shared.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const heldAnswer = answer !== null && answer.queryHash === queryHash ? answer : null;
  const flow = heldAnswer?.flow ?? flowQuery.data ?? null;
  const flowId = flow?.id ?? null;

  const restart = useCallback(
    (restartOptions?: { dropReturnTo?: boolean }) => {
      setAnswer(null);
      setAttempt((previous) => ({
        ...previous,
        flowId: null,
        returnTo: restartOptions?.dropReturnTo ? null : previous.returnTo,
        generation: previous.generation + 1,
      }));
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete('flow');
          if (restartOptions?.dropReturnTo) next.delete('return_to');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  const currentPath = useCallback(() => {
    const query = new URLSearchParams(location.search);
    if (flowId !== null) query.set('flow', flowId);
    const search = query.toString();
    return `${location.pathname}${search === '' ? '' : `?${search}`}`;
  }, [location.pathname, location.search, flowId]);

  const hasSessionInactiveRule = options.onSessionInactive !== undefined;
  const onSessionInactive = useCallback(() => optionsRef.current.onSessionInactive?.(), []);
  const handleFlowError = useFlowErrorHandler({
    restart,
    currentPath: returnHereAfterSignIn ? currentPath : undefined,
    onSessionInactive: hasSessionInactiveRule ? onSessionInactive : undefined,
  });

  const loadError = flowQuery.error;
  // The handler changes with the address; one failure must still lead to one toast and one navigation.
  const handledLoadErrorRef = useRef<unknown>(null);
  useEffect(() => {
    if (loadError === null || handledLoadErrorRef.current === loadError) return;
    handledLoadErrorRef.current = loadError;
    if (optionsRef.current.onLoadError?.(loadError, phaseRef.current)) return;
    if (!handleFlowError(loadError)) reportFlowError(loadError);
  }, [loadError, handleFlowError]);

  async function submit(values: FlowValues): Promise<void> {
    if (flow === null) return;
    const drop = optionsRef.current.dropOnSubmit ?? [];
    if (searchParams.get('flow') !== flow.id || drop.some((name) => searchParams.has(name))) {
      setSearchParams((previous) => {
        const next = new URLSearchParams(previous);
        next.set('flow', flow.id);
        for (const name of drop) next.delete(name);
        return next;
      });
    }
    try {
      const send = optionsRef.current.send ?? submitFlow;
      const outcome = await send(flow, values);
      if (outcome.kind === 'flow') {
        setAnswer((previous) => ({ queryHash, flow: outcome.flow, sequence: (previous?.sequence ?? 0) + 1 }));
        optionsRef.current.onAnswer?.(outcome.flow);
        return;
      }
      optionsRef.current.onComplete?.(outcome.body, flow);
    } catch (error) {
      if (!handleFlowError(error)) reportFlowError(error);
    }
  }

  return {
    flow,
    formKey: `${flowId ?? 'none'}-${attempt.generation}-${heldAnswer?.sequence ?? 0}`,
    answered: heldAnswer !== null,
    loadError: flowQuery.error,
    returnTo: attempt.returnTo,
    restart,
    submit,
  };
}
