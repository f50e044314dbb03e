import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerCodeFlow, type CodeFlow, type CodeFlowDeps, type CodeFlowTexts, type RedeemedCode, type Verification } from '../shared/code-flow';
import { kratosErrorSchema } from '../shared/flow-http';
import { completeFlow, flowResponseSchema, saveFlowUi, type Flow } from '../shared/flow-store';
import { submitFlow, type FlowSubmission } from '../shared/flow-submission';
import { csrfNode, type UiNode, type UiText } from '../shared/ui-nodes';
import { CODE_TTL_MS, markAddressVerified } from '../shared/verification-codes';

export const VERIFICATION_PAGE = '/verification';
const VERIFICATION_LINK_PATH = '/api/auth/self-service/verification';

const verificationTexts: CodeFlowTexts = {
  codeLabel: 'Verification code',
  submitLabel: 'Verify',
  sent: {
    id: 1080003,
    text: 'If this address belongs to an account here, a verification code is on its way to it. Enter the code below; if nothing arrives, check the spelling and use the address you signed up with.',
    type: 'info',
  },
  invalidCode: { id: 4070006, text: 'That verification code is wrong, already used or expired. Check the mail, or send a new code.', type: 'error' },
  exhausted: {
    id: 4070007,
    text: 'Too many wrong codes were entered, so that code no longer works. Enter your address again to get a new one.',
    type: 'error',
  },
};

const verifiedMessage: UiText = { id: 1080002, text: 'Your email address is verified.', type: 'success' };

function verifiedNodes(returnTo: string | null): UiNode[] {
  return [
    csrfNode(),
    {
      type: 'a',
      group: 'default',
      attributes: { node_type: 'a', id: 'continue', href: returnTo ?? '/', title: { id: 1070009, text: 'Continue', type: 'info' } },
      messages: [],
      meta: { label: { id: 1070009, text: 'Continue', type: 'info' } },
    },
  ];
}

function verificationMail(input: { code: string; flow: Flow; origin: string }): { subject: string; text: string } {
  const link = `${input.origin}${VERIFICATION_LINK_PATH}?${new URLSearchParams({ flow: input.flow.id, code: input.code }).toString()}`;
  return {
    subject: 'Confirm your email address for Opsdeck',
    text: [
      `Your verification code is ${input.code}.`,
      '',
      'Enter it on the verification page, or open this link to confirm the address right away:',
      link,
      '',
      `The code works once and for ${CODE_TTL_MS / 60_000} minutes. If you did not sign up for Opsdeck or ask for this mail, ignore it.`,
    ].join('\n'),
  };
}

/** A right verification code: the flow completes and the address counts as verified. */
async function verifyWithCode(deps: CodeFlowDeps, submission: FlowSubmission, { identityId, address }: RedeemedCode): Promise<FastifyReply> {
  const pool = deps.context.db.pool;
  const { flow } = submission;
  if (!(await completeFlow(pool, flow.id, identityId))) return submission.replaceStale();
  await markAddressVerified(pool, identityId, address);
  const done = await saveFlowUi(pool, flow.id, { nodes: verifiedNodes(flow.returnTo), messages: [verifiedMessage] });
  return submission.answer(done, 200);
}

/** The link's code, checked like a typed one; a flow that never sent a code has nothing to check, and the page shows it as it is. */
async function verifyWithLink(codeFlow: CodeFlow, submission: FlowSubmission, code: string): Promise<FastifyReply> {
  if (submission.flow.state !== 'sent_email') return submission.answer(submission.flow, 400);
  return codeFlow.checkCode(submission, code);
}

/** The verification flow (code method and the link in its mail); answers the flow that registration starts too. */
export function registerVerification(auth: FastifyInstance, deps: CodeFlowDeps): Verification {
  const api = auth.withTypeProvider<ZodTypeProvider>();
  const codeFlow = registerCodeFlow(auth, deps, {
    kind: 'verification',
    page: VERIFICATION_PAGE,
    refuseSignedIn: false,
    texts: verificationTexts,
    mail: verificationMail,
    succeed: (submission, redeemed) => verifyWithCode(deps, submission, redeemed),
  });

  // The link in the mail. A GET, so opening the mail in another browser (or on a phone) verifies too: the flow id and
  // the code are the credential, and every wrong code counts against the flow's five tries. The code is in the URL, so
  // the per-request info log lines are silenced, as for the logout link.
  api.get(
    '/self-service/verification',
    {
      logLevel: 'warn',
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Verify an address with the link from the verification mail, then continue at /verification',
        querystring: z.object({ flow: z.string().max(64), code: z.string().max(64) }),
        response: { 200: flowResponseSchema, 400: z.union([flowResponseSchema, kratosErrorSchema]), 404: kratosErrorSchema, 410: kratosErrorSchema, 429: kratosErrorSchema },
      },
    },
    async (request, reply) =>
      submitFlow(request, reply, codeFlow.route, { via: 'link', flowId: request.query.flow }, (submission) =>
        verifyWithLink(codeFlow, submission, request.query.code),
      ),
  );

  return {
    page: VERIFICATION_PAGE,
    async startFor(request, reply, identityId, address, returnTo) {
      const { flow } = await codeFlow.newFlow(request, reply, returnTo);
      return codeFlow.sendCode(request, flow, address, identityId);
    },
  };
}
