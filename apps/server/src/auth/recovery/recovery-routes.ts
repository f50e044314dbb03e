import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describeSession, identityResponseSchema, sessionResponseSchema, type SessionResponse } from '../sessions/sessions';
import { registerCodeFlow, type CodeFlow, type CodeFlowDeps, type CodeFlowTexts, type RedeemedCode } from '../shared/code-flow';
import { kratosErrorSchema, setSessionCookie } from '../shared/flow-http';
import { completeFlow, flowResponseSchema, type Flow } from '../shared/flow-store';
import { answerFlow, type FlowSubmission } from '../shared/flow-submission';
import { kratosErrors } from '../shared/kratos-error';
import { wantsJson } from '../shared/request-info';
import { SESSION_TTL_MS } from '../shared/session-token';
import type { UiText } from '../shared/ui-nodes';
import { CODE_TTL_MS, markAddressVerified } from '../shared/verification-codes';
import { redeemRecoveryLink } from './recovery-link';
import { settingsLocation, startRecoverySession } from './recovery-session';

export const RECOVERY_PAGE = '/recovery';

const recoveryTexts: CodeFlowTexts = {
  codeLabel: 'Recovery code',
  submitLabel: 'Continue',
  sent: {
    id: 1060003,
    text: 'If this address belongs to an account here, a recovery code is on its way to it. Enter the code below; if nothing arrives, check the spelling and use the address you sign in with.',
    type: 'info',
  },
  invalidCode: { id: 4060006, text: 'That recovery code is wrong, already used or expired. Check the mail, or send a new code.', type: 'error' },
  exhausted: {
    id: 4060007,
    text: 'Too many wrong codes were entered, so that code no longer works. Enter your address again to get a new one.',
    type: 'error',
  },
};

const linkInvalid: UiText = {
  id: 4060004,
  text: 'This recovery link does not work any more: it was used already, expired, or a newer one replaced it. Ask for a code below, or for a new invitation.',
  type: 'error',
};

function recoveryMail(input: { code: string; flow: Flow; origin: string }): { subject: string; text: string } {
  const page = `${input.origin}${RECOVERY_PAGE}?${new URLSearchParams({ flow: input.flow.id }).toString()}`;
  return {
    subject: 'Your Opsdeck account recovery code',
    text: [
      `Your recovery code is ${input.code}.`,
      '',
      'Enter it on the recovery page, in the browser where you asked for it:',
      page,
      '',
      `The code works once and for ${CODE_TTL_MS / 60_000} minutes. Once you are in, set a new password.`,
      'If you did not ask to recover your account, ignore this mail: nothing changes unless the code is used.',
    ].join('\n'),
  };
}

interface LinkSignIn {
  session: SessionResponse;
  identity: SessionResponse['identity'];
  continue_with: { action: 'redirect_browser_to'; redirect_browser_to: string }[];
}

/** Where a recovered person goes next: 422 browser_location_change_required for JSON clients (as Kratos does for single-page apps), a 303 for browsers. */
function toSettings(reply: FastifyReply, location: string, json: boolean): FastifyReply {
  if (!json) return reply.redirect(location, 303);
  return reply.status(422).send(kratosErrors.browserLocationChangeRequired(location).toBody());
}

/** A right recovery code: the flow completes, the address counts as verified, and the person is signed in. */
async function recoverWithCode(deps: CodeFlowDeps, submission: FlowSubmission, { identityId, address }: RedeemedCode): Promise<FastifyReply> {
  const pool = deps.context.db.pool;
  const { request, reply, flow, json } = submission;
  if (!(await completeFlow(pool, flow.id, identityId))) return submission.replaceStale();
  // The code reached the person through this address, which proves they read its mail.
  await markAddressVerified(pool, identityId, address);
  const session = await startRecoverySession(pool, deps.context.bus, identityId, 'code_recovery');
  setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
  return toSettings(reply, settingsLocation(flow.returnTo), json);
}

/** `GET /self-service/recovery?token=`: the link of an invitation signs its person in once; a spent link offers the code flow. */
async function recoverWithLink(
  deps: CodeFlowDeps,
  codeFlow: CodeFlow,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): Promise<FastifyReply | LinkSignIn> {
  const pool = deps.context.db.pool;
  const json = wantsJson(request);
  const identityId = await redeemRecoveryLink(pool, token);
  if (identityId === null) {
    const { flow, csrfToken } = await codeFlow.newFlow(request, reply, undefined, [linkInvalid]);
    return answerFlow(reply, codeFlow.route, flow, json, 400, csrfToken);
  }
  const session = await startRecoverySession(pool, deps.context.bus, identityId, 'link_recovery');
  setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
  const location = settingsLocation(null);
  if (!json) return reply.redirect(location, 303);
  // A JSON client gets the session it now holds and where a browser would have gone.
  const described = await describeSession(pool, session.id);
  if (described === null) throw new Error('a session just created could not be read back');
  return { session: described, identity: described.identity, continue_with: [{ action: 'redirect_browser_to' as const, redirect_browser_to: location }] };
}

/**
 * The recovery flow (code method) and the recovery link of invitations. A right code or a valid link signs the person
 * in with a privileged session, ends their other sessions, and sends them to the settings page to set a password.
 */
export function registerRecovery(auth: FastifyInstance, deps: CodeFlowDeps): void {
  const api = auth.withTypeProvider<ZodTypeProvider>();
  const codeFlow = registerCodeFlow(auth, deps, {
    kind: 'recovery',
    page: RECOVERY_PAGE,
    refuseSignedIn: true,
    texts: recoveryTexts,
    mail: recoveryMail,
    succeed: (submission, redeemed) => recoverWithCode(deps, submission, redeemed),
  });

  // The token is the credential and travels in the URL, so the per-request info log lines are silenced for this route.
  api.get(
    '/self-service/recovery',
    {
      logLevel: 'warn',
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in once with a recovery link (an invitation), then continue at /profile-settings to set a password',
        querystring: z.object({ token: z.string().max(200) }),
        response: {
          200: z.object({
            session: sessionResponseSchema,
            identity: identityResponseSchema,
            continue_with: z.array(z.object({ action: z.literal('redirect_browser_to'), redirect_browser_to: z.string() })),
          }),
          400: z.union([flowResponseSchema, kratosErrorSchema]),
        },
      },
    },
    async (request, reply) => recoverWithLink(deps, codeFlow, request, reply, request.query.token),
  );
}
