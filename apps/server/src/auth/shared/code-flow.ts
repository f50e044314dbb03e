import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import type { Principal } from '../../platform/principal';
import type { Courier, IdentityMailKind } from './courier';
import { ensureCsrfCookie } from './csrf';
import { kratosErrorSchema } from './flow-http';
import { createFlow, expireFlow, flowResponseSchema, saveFlowState, saveFlowUi, type Flow } from './flow-store';
import { answerFlow, showFlow, submitFlow, type FlowRoute, type FlowSubmission } from './flow-submission';
import type { FlowThrottle } from './flow-throttle';
import { isEmailAddress, normalizeIdentifier, printable } from './form-text';
import { kratosErrors } from './kratos-error';
import { requestOrigin, wantsJson } from './request-info';
import { parseReturnTo, returnLocation } from './return-to';
import { identityForAddress, type CodeStore } from './verification-codes';
import { csrfNode, inputNode, uiMessages, withFieldMessages, type UiNode, type UiText } from './ui-nodes';

/**
 * What recovery and verification share: a browser flow that asks for an address, mails a six-digit code to it when an
 * identity has it, and takes the code back. Everything that differs (wording, the mail, what a right code does) comes
 * from a CodeFlowSpec; the routes are Kratos's `/self-service/{kind}/browser`, `…/flows` and `POST /self-service/{kind}`.
 */
export type CodeFlowKind = 'recovery' | 'verification';

export interface CodeFlowTexts {
  /** Label of the code input. */
  codeLabel: string;
  /** Label of the button that submits the code. */
  submitLabel: string;
  /** The flow message once a code is on its way (worded so it is true whether or not the address has an account). */
  sent: UiText;
  /** Under the code input after a wrong, used or expired code. */
  invalidCode: UiText;
  /** On the fresh flow that replaces one spent by too many wrong codes. */
  exhausted: UiText;
}

/** Whose code was right, and the address it was mailed to. */
export interface RedeemedCode {
  identityId: string;
  address: string;
}

export interface CodeFlowSpec {
  kind: CodeFlowKind;
  /** The console page that renders the flow. */
  page: string;
  /** Kratos refuses a recovery flow to a browser that is signed in; verification serves it. */
  refuseSignedIn: boolean;
  texts: CodeFlowTexts;
  mail(input: { code: string; address: string; flow: Flow; origin: string }): { subject: string; text: string };
  /** Answers a right code; the code is spent, the flow not yet completed. */
  succeed(submission: FlowSubmission, redeemed: RedeemedCode): Promise<FastifyReply>;
}

export interface CodeFlowDeps {
  context: AppContext;
  courier: Courier;
  throttle: FlowThrottle;
  codes: CodeStore;
  authenticate(request: FastifyRequest): Promise<Principal | null>;
}

export interface CodeFlow {
  /** How the flow is found, replaced and rendered, for flow-submission.ts. */
  route: FlowRoute;
  /**
   * A new flow at its first step, bound to this browser's CSRF cookie (set now when the browser has none yet), with
   * `messages` shown on it; the token comes back for rendering, as the request does not carry a new cookie yet.
   */
  newFlow(
    request: FastifyRequest,
    reply: FastifyReply,
    returnTo: string | undefined,
    messages?: UiText[],
    email?: string,
  ): Promise<{ flow: Flow; csrfToken: string }>;
  /** Mails a code for the flow to the address when `identityId` is known, and moves the flow to the code step. */
  sendCode(request: FastifyRequest, flow: Flow, address: string, identityId: string | null): Promise<Flow>;
  /** Checks a code for the submitted flow and answers: the spec's success, or the flow with a message. */
  checkCode(submission: FlowSubmission, code: string): Promise<FastifyReply>;
}

/** What registration asks of the verification flow, which it is handed rather than importing another flow's folder. */
export interface Verification {
  /** The console page that renders verification flows. */
  page: string;
  /**
   * Starts a verification for an identity that was just created (registration): a flow already at the code step, bound
   * to this browser, and the mail sent. No throttle applies; the registration that calls it has its own.
   */
  startFor(request: FastifyRequest, reply: FastifyReply, identityId: string, address: string, returnTo: string | undefined): Promise<Flow>;
}

const codeFlowBodySchema = z.object({
  method: z.string().max(64).optional(),
  csrf_token: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  code: z.string().max(64).optional(),
});
type CodeFlowBody = z.infer<typeof codeFlowBodySchema>;

const EMAIL_LABEL: UiText = { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail' } };

export const codeFlowMessages = {
  invalidEmail: (): UiText => ({ id: 4000001, text: 'Enter a valid email address, such as name@example.com.', type: 'error' }),
  onlyCode: (): UiText => ({ id: 4010002, text: 'This flow only works with a code sent by email.', type: 'error' }),
} as const;

/** Links in mail point where people reach the console: OPSDECK_PUBLIC_URL when set, else the origin of the request. */
export function publicOrigin(context: AppContext, request: FastifyRequest): string {
  return (context.config.publicUrl ?? requestOrigin(request)).replace(/\/+$/, '');
}

/** Sends without waiting: the answer (and its timing) must not depend on whether, or how slowly, a mail goes out. */
export function dispatchMail(courier: Courier, log: FastifyBaseLogger, mail: { kind: IdentityMailKind; to: string; subject: string; text: string }): void {
  courier.send(mail).catch((error: unknown) => {
    log.warn({ err: error, kind: mail.kind }, 'identity mail could not be sent');
  });
}

function emailStepNodes(email: string | undefined): UiNode[] {
  return [
    csrfNode(),
    inputNode('default', { name: 'email', type: 'email', required: true, autocomplete: 'email', ...(email === undefined ? {} : { value: printable(email) }) }, EMAIL_LABEL),
    inputNode('default', { name: 'method', type: 'submit', value: 'code' }, { id: 1070005, text: 'Send code', type: 'info' }),
  ];
}

/**
 * The code step. The resend button is a submit named `email` carrying the address, as in Kratos: a form post of it
 * sends no code, so the server sends a new one; a post with a code checks the code.
 */
function codeStepNodes(texts: CodeFlowTexts, address: string): UiNode[] {
  return [
    csrfNode(),
    inputNode(
      'default',
      { name: 'code', type: 'text', required: true, autocomplete: 'one-time-code', pattern: '[0-9]{6}' },
      { id: 1070006, text: texts.codeLabel, type: 'info' },
    ),
    inputNode('default', { name: 'method', type: 'submit', value: 'code' }, { id: 1070009, text: texts.submitLabel, type: 'info' }),
    inputNode('default', { name: 'email', type: 'submit', value: address }, { id: 1070008, text: 'Send a new code', type: 'info' }),
  ];
}

/** The flow's steps, shared by its routes, the recovery link and registration's verification. */
function createCodeFlow(deps: CodeFlowDeps, spec: CodeFlowSpec): CodeFlow {
  const { context, courier, throttle, codes } = deps;
  const pool = context.db.pool;

  const flows: CodeFlow = {
    route: {
      kind: spec.kind,
      page: spec.page,
      pool,
      replace: async (request, reply, stale) => (await flows.newFlow(request, reply, stale.returnTo ?? undefined)).flow,
    },

    async newFlow(request, reply, returnTo, messages = [], email) {
      const csrfToken = ensureCsrfCookie(request, reply);
      // Always the create URL, never the request's own: a flow made by the mail link must not echo its code or token.
      const query = returnTo === undefined ? '' : `?${new URLSearchParams({ return_to: returnTo }).toString()}`;
      const flow = await createFlow(pool, {
        kind: spec.kind,
        returnTo,
        requestUrl: `${requestOrigin(request)}/api/auth/self-service/${spec.kind}/browser${query}`,
        csrfToken,
        ui: { nodes: emailStepNodes(email), messages },
      });
      return { flow, csrfToken };
    },

    async sendCode(request, flow, address, identityId) {
      const code = await codes.issue({ purpose: spec.kind, flowId: flow.id, identityId, address });
      if (identityId !== null) {
        const mail = spec.mail({ code, address, flow, origin: publicOrigin(context, request) });
        dispatchMail(courier, request.log, { kind: spec.kind, to: address, ...mail });
      }
      return saveFlowState(pool, flow.id, 'sent_email', { nodes: codeStepNodes(spec.texts, address), messages: [spec.texts.sent] });
    },

    async checkCode(submission, code) {
      const { flow } = submission;
      const address = (await codes.currentAddress(flow.id)) ?? '';
      const verdict = await throttle.assess(address, submission.address);
      if (!verdict.allowed) throw submission.tooMany(verdict.retryAfterSeconds);
      const result = await codes.redeem(flow.id, code);
      if (result.outcome === 'ok') {
        await throttle.recordSuccess(address, submission.address);
        return spec.succeed(submission, { identityId: result.identityId, address: result.address });
      }
      await throttle.recordFailure(address, submission.address);
      if (result.outcome === 'exhausted') {
        // The flow is spent; the answer is a fresh flow at the first step, so the person asks for a new code.
        await expireFlow(pool, flow.id);
        const fresh = await flows.newFlow(submission.request, submission.reply, flow.returnTo ?? undefined, [spec.texts.exhausted], address === '' ? undefined : address);
        return submission.answer(fresh.flow, 400, fresh.csrfToken);
      }
      const nodes = withFieldMessages(codeStepNodes(spec.texts, address), 'code', [spec.texts.invalidCode]);
      return submission.answer(await saveFlowUi(pool, flow.id, { nodes, messages: [] }), 400);
    },
  };
  return flows;
}

/** `GET /self-service/{kind}/browser`: a new flow (a signed-in browser is refused a recovery flow, as in Kratos). */
async function createBrowserCodeFlow(
  deps: CodeFlowDeps,
  spec: CodeFlowSpec,
  flows: CodeFlow,
  request: FastifyRequest,
  reply: FastifyReply,
  rawReturnTo: string | undefined,
): Promise<FastifyReply> {
  const json = wantsJson(request);
  const allowlist = deps.context.config.returnToAllowlist;
  const returnTo = parseReturnTo(rawReturnTo, requestOrigin(request), allowlist);
  if (spec.refuseSignedIn && (await deps.authenticate(request)) !== null) {
    if (json) throw kratosErrors.sessionAlreadyAvailable();
    return reply.redirect(returnLocation(returnTo, requestOrigin(request), '/', allowlist), 303);
  }
  const { flow, csrfToken } = await flows.newFlow(request, reply, returnTo);
  return answerFlow(reply, flows.route, flow, json, 200, csrfToken);
}

/** `POST /self-service/{kind}`: an address to mail a code to (again), or the code that was mailed. */
async function submitCodeStep(deps: CodeFlowDeps, spec: CodeFlowSpec, flows: CodeFlow, submission: FlowSubmission, body: CodeFlowBody): Promise<FastifyReply> {
  const { flow } = submission;
  const { method, email, code } = body;
  const sentTo = flow.state === 'sent_email' ? await deps.codes.currentAddress(flow.id) : null;
  const currentNodes = (): UiNode[] => (sentTo === null ? emailStepNodes(email) : codeStepNodes(spec.texts, sentTo));

  if (method !== undefined && method !== 'code') return submission.reject({ nodes: currentNodes(), messages: [codeFlowMessages.onlyCode()] });
  if (sentTo !== null && code !== undefined && code.trim() !== '') return flows.checkCode(submission, code);

  const address = normalizeIdentifier(email ?? '');
  if (address === '') {
    const field = sentTo === null ? 'email' : 'code';
    return submission.reject({ nodes: withFieldMessages(currentNodes(), field, [uiMessages.missingProperty(field)]), messages: [] });
  }
  if (!isEmailAddress(address)) {
    return submission.reject({ nodes: withFieldMessages(emailStepNodes(email), 'email', [codeFlowMessages.invalidEmail()]), messages: [] });
  }
  const admitted = await deps.throttle.admitMail(address, submission.address);
  if (!admitted.allowed) throw submission.tooMany(admitted.retryAfterSeconds);
  const updated = await flows.sendCode(submission.request, flow, address, await identityForAddress(deps.context.db.pool, address));
  return submission.answer(updated, 200);
}

/** Registers Kratos's `/self-service/{kind}/browser`, `…/flows` and `POST /self-service/{kind}` for a code flow. */
export function registerCodeFlow(auth: FastifyInstance, deps: CodeFlowDeps, spec: CodeFlowSpec): CodeFlow {
  const flows = createCodeFlow(deps, spec);
  const api = auth.withTypeProvider<ZodTypeProvider>();

  api.get(
    `/self-service/${spec.kind}/browser`,
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: `Create a browser ${spec.kind} flow (JSON with Accept: application/json, otherwise a redirect to ${spec.page})`,
        querystring: z.object({ return_to: z.string().max(2048).optional() }),
        response: { 200: flowResponseSchema, 400: kratosErrorSchema },
      },
    },
    async (request, reply) => createBrowserCodeFlow(deps, spec, flows, request, reply, request.query.return_to),
  );

  api.get(
    `/self-service/${spec.kind}/flows`,
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: `Get a ${spec.kind} flow`,
        querystring: z.object({ id: z.string().max(64) }),
        response: { 200: flowResponseSchema, 404: kratosErrorSchema, 410: kratosErrorSchema },
      },
    },
    async (request, reply) => showFlow(request, reply, flows.route, request.query.id),
  );

  api.post(
    `/self-service/${spec.kind}`,
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: `Submit a ${spec.kind} flow: an email address to send a code to, or the code (JSON or form-encoded)`,
        querystring: z.object({ flow: z.string().max(64) }),
        body: codeFlowBodySchema,
        response: {
          200: flowResponseSchema,
          400: z.union([flowResponseSchema, kratosErrorSchema]),
          403: kratosErrorSchema,
          404: kratosErrorSchema,
          410: kratosErrorSchema,
          422: kratosErrorSchema,
          429: kratosErrorSchema,
        },
      },
    },
    async (request, reply) =>
      submitFlow(request, reply, flows.route, { via: 'form', flowId: request.query.flow, csrfToken: request.body.csrf_token }, (submission) =>
        submitCodeStep(deps, spec, flows, submission, request.body),
      ),
  );

  return flows;
}
