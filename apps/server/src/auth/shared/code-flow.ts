import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import type { Principal } from '../../platform/principal';
import type { Courier, IdentityMailKind } from './courier';
import { csrfAccepted, csrfCookieToken, ensureCsrfCookie } from './csrf';
import { flowPageUrl, kratosErrorSchema } from './flow-http';
import {
  createFlow,
  expireFlow,
  findFlow,
  flowResponseSchema,
  isExpired,
  renderFlow,
  saveFlowState,
  saveFlowUi,
  type Flow,
  type FlowResponse,
} from './flow-store';
import type { FlowThrottle } from './flow-throttle';
import { kratosErrors } from './kratos-error';
import { normalizeIdentifier } from '../login/password-login';
import { clientAddress, requestOrigin, wantsJson } from './request-info';
import { parseReturnTo, returnLocation } from './return-to';
import { identityForAddress, type CodeStore } from './verification-codes';
import { csrfNode, inputNode, uiMessages, withFieldMessages, type StoredUi, type UiNode, type UiText } from './ui-nodes';

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

export interface CodeFlowSuccess {
  request: FastifyRequest;
  reply: FastifyReply;
  flow: Flow;
  identityId: string;
  address: string;
  json: boolean;
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
  succeed(success: CodeFlowSuccess): Promise<FastifyReply | FlowResponse>;
}

export interface CodeFlowDeps {
  context: AppContext;
  courier: Courier;
  throttle: FlowThrottle;
  codes: CodeStore;
  authenticate(request: FastifyRequest): Promise<Principal | null>;
}

export interface CodeFlow {
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
  /** Checks a code for the flow and answers the request: the spec's success, or the flow with a message. */
  checkCode(request: FastifyRequest, reply: FastifyReply, flow: Flow, code: string, json: boolean): Promise<FastifyReply | FlowResponse>;
  /** The flow as JSON (status 200 or 400), or a redirect to its page for a browser; the CSRF value is the cookie's. */
  answer(request: FastifyRequest, reply: FastifyReply, flow: Flow, json: boolean, status: 200 | 400, csrfToken?: string | null): FastifyReply;
  /** Kratos's answer to a used or expired flow: a fresh one, named in a 410 for JSON, redirected to for browsers. */
  replaceStale(request: FastifyRequest, reply: FastifyReply, stale: Flow, json: boolean): Promise<FastifyReply>;
}

const codeFlowBodySchema = z.object({
  method: z.string().max(64).optional(),
  csrf_token: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  code: z.string().max(64).optional(),
});

const EMAIL_LABEL: UiText = { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail' } };

export const codeFlowMessages = {
  invalidEmail: (): UiText => ({ id: 4000001, text: 'Enter a valid email address, such as name@example.com.', type: 'error' }),
  onlyCode: (): UiText => ({ id: 4010002, text: 'This flow only works with a code sent by email.', type: 'error' }),
} as const;

/** Something@somewhere without spaces: lenient on purpose (admin@localhost is a real sign-in here); mail proves the rest. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.][^\s@]*$/;
/** Control characters and unpaired surrogates: PostgreSQL refuses a NUL in text and a lone surrogate in jsonb. */
const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'gu');

/** Control characters have no place in names or addresses, and some of them cannot even be stored. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

/** What a refused form echoes back: what was typed, less control characters, which the stored flow (jsonb) cannot hold. */
export function printable(value: string): string {
  return value.replace(CONTROL_CHARACTERS, '');
}

export function isEmailAddress(value: string): boolean {
  return value.length <= 320 && EMAIL_SHAPE.test(value) && !value.endsWith('.') && !hasControlCharacters(value);
}

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

function retryAfter(reply: FastifyReply, seconds: number): never {
  reply.header('retry-after', String(seconds));
  throw kratosErrors.flowRateLimited();
}

export function registerCodeFlow(auth: FastifyInstance, deps: CodeFlowDeps, spec: CodeFlowSpec): CodeFlow {
  const { context, courier, throttle, codes, authenticate } = deps;
  const pool = context.db.pool;
  const allowlist = context.config.returnToAllowlist;
  const api = auth.withTypeProvider<ZodTypeProvider>();

  const flows: CodeFlow = {
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

    async checkCode(request, reply, flow, code, json) {
      const address = (await codes.currentAddress(flow.id)) ?? '';
      const ip = clientAddress(request);
      const verdict = await throttle.assess(address, ip);
      if (!verdict.allowed) retryAfter(reply, verdict.retryAfterSeconds);
      const result = await codes.redeem(flow.id, code);
      if (result.outcome === 'ok') {
        await throttle.recordSuccess(address, ip);
        return spec.succeed({ request, reply, flow, identityId: result.identityId, address: result.address, json });
      }
      await throttle.recordFailure(address, ip);
      if (result.outcome === 'exhausted') {
        // The flow is spent; the answer is a fresh flow at the first step, so the person asks for a new code.
        await expireFlow(pool, flow.id);
        const fresh = await flows.newFlow(request, reply, flow.returnTo ?? undefined, [spec.texts.exhausted], address === '' ? undefined : address);
        return flows.answer(request, reply, fresh.flow, json, 400, fresh.csrfToken);
      }
      const nodes = withFieldMessages(codeStepNodes(spec.texts, address), 'code', [spec.texts.invalidCode]);
      const updated = await saveFlowUi(pool, flow.id, { nodes, messages: [] });
      return flows.answer(request, reply, updated, json, 400);
    },

    answer(request, reply, flow, json, status, csrfToken = csrfCookieToken(request)) {
      if (!json) return reply.redirect(flowPageUrl(spec.page, flow.id, flow.returnTo), 303);
      return reply.status(status).send(renderFlow(flow, csrfToken));
    },

    async replaceStale(request, reply, stale, json) {
      const { flow: fresh } = await flows.newFlow(request, reply, stale.returnTo ?? undefined);
      if (!json) return reply.redirect(flowPageUrl(spec.page, fresh.id, fresh.returnTo), 303);
      throw kratosErrors.flowExpired(stale.expiresAt, fresh.id);
    },
  };

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
    async (request, reply) => {
      const json = wantsJson(request);
      const returnTo = parseReturnTo(request.query.return_to, requestOrigin(request), allowlist);
      if (spec.refuseSignedIn && (await authenticate(request)) !== null) {
        if (json) throw kratosErrors.sessionAlreadyAvailable();
        return reply.redirect(returnLocation(returnTo, requestOrigin(request), '/', allowlist), 303);
      }
      const { flow, csrfToken } = await flows.newFlow(request, reply, returnTo);
      return flows.answer(request, reply, flow, json, 200, csrfToken);
    },
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
    async (request, reply) => {
      const flow = await findFlow(pool, spec.kind, request.query.id);
      if (flow === null) throw kratosErrors.flowNotFound();
      if (isExpired(flow)) return flows.replaceStale(request, reply, flow, true);
      return renderFlow(flow, csrfCookieToken(request));
    },
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
    async (request, reply) => {
      const json = wantsJson(request);
      const flow = await findFlow(pool, spec.kind, request.query.flow);
      if (flow === null) {
        if (json) throw kratosErrors.flowNotFound();
        return reply.redirect(spec.page, 303);
      }
      if (isExpired(flow) || flow.state === 'passed_challenge') return flows.replaceStale(request, reply, flow, json);
      if (!csrfAccepted(flow.csrfTokenHash, csrfCookieToken(request), request.body.csrf_token)) throw kratosErrors.csrfViolation();

      const { method, email, code } = request.body;
      const reject = async (ui: StoredUi): Promise<FastifyReply> => flows.answer(request, reply, await saveFlowUi(pool, flow.id, ui), json, 400);
      const sentTo = flow.state === 'sent_email' ? await codes.currentAddress(flow.id) : null;
      const currentNodes = (): UiNode[] => (sentTo === null ? emailStepNodes(email) : codeStepNodes(spec.texts, sentTo));

      if (method !== undefined && method !== 'code') return reject({ nodes: currentNodes(), messages: [codeFlowMessages.onlyCode()] });
      if (sentTo !== null && code !== undefined && code.trim() !== '') return flows.checkCode(request, reply, flow, code, json);

      const address = normalizeIdentifier(email ?? '');
      if (address === '') {
        const field = sentTo === null ? 'email' : 'code';
        return reject({ nodes: withFieldMessages(currentNodes(), field, [uiMessages.missingProperty(field)]), messages: [] });
      }
      if (!isEmailAddress(address)) {
        return reject({ nodes: withFieldMessages(emailStepNodes(email), 'email', [codeFlowMessages.invalidEmail()]), messages: [] });
      }
      const admitted = await throttle.admitMail(address, clientAddress(request));
      if (!admitted.allowed) retryAfter(reply, admitted.retryAfterSeconds);
      const updated = await flows.sendCode(request, flow, address, await identityForAddress(pool, address));
      return flows.answer(request, reply, updated, json, 200);
    },
  );

  return flows;
}
