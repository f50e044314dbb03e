import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { csrfAccepted, csrfCookieToken } from './csrf';
import { flowPageUrl } from './flow-http';
import { findFlow, isExpired, renderFlow, saveFlowUi, type Flow, type FlowKind, type FlowResponse } from './flow-store';
import { kratosErrors, type KratosError } from './kratos-error';
import { clientAddress, wantsJson } from './request-info';
import type { StoredUi } from './ui-nodes';

/**
 * How one kind of self-service flow is found, replaced and shown. Each flow folder describes its kind once; the reads
 * (`showFlow`) and submissions (`submitFlow`) of every kind then answer unknown, stale and forged requests alike.
 */
export interface FlowRoute {
  kind: FlowKind;
  /** The console page that renders the flow; a browser that names an unknown flow is sent there. */
  page: string;
  pool: pg.Pool;
  /** The flow a client names; by default any flow of this kind (settings: only the signed-in person's). */
  find?(request: FastifyRequest, id: string): Promise<Flow | null>;
  /** A fresh flow in place of one that expired or was used, for the client to continue with. */
  replace(request: FastifyRequest, reply: FastifyReply, stale: Flow): Promise<Flow>;
  /** Refuses the whole kind (registration while it is closed); asked once the flow is found and, on a submission, its form token accepted. */
  admit?(): Promise<void>;
  /** The flow as JSON; by default renderFlow (settings fills in its sealed secrets). */
  render?(flow: Flow, csrfToken: string | null): Promise<FlowResponse>;
  /** Settings flows take any number of submissions until they expire; the others end once passed. */
  reusable?: boolean;
}

/**
 * What the client sent with a submission: a form carries the browser's CSRF token; a link from a mail carries none, its
 * flow id and code are the credential, and a browser opening it again after it worked sees the result.
 */
export type Submitted = { via: 'form'; flowId: string; csrfToken: string | undefined } | { via: 'link'; flowId: string };

/** One accepted submission of a flow, with the answers every flow gives. */
export interface FlowSubmission {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly flow: Flow;
  readonly json: boolean;
  /** The browser's CSRF token, which the form of the answer carries again. */
  readonly csrfToken: string | null;
  /** The client address the throttles count by (request-info.ts). */
  readonly address: string;
  /** Stores the form shown again with its messages, then answers it: 400 for JSON, the flow's page for a browser. */
  reject(ui: StoredUi): Promise<FastifyReply>;
  /** Answers with `flow` (200 or 400 for JSON, its page for a browser). */
  answer(flow: Flow, status: 200 | 400, csrfToken?: string | null): Promise<FastifyReply>;
  /** Kratos's answer to a flow that another request used meanwhile: a fresh flow. */
  replaceStale(): Promise<FastifyReply>;
  /** Sets Retry-After and returns the 429 to throw; `error` defaults to the flows' own rate-limit error. */
  tooMany(retryAfterSeconds: number, error?: KratosError): KratosError;
}

/** The flow as JSON with `status`, or a redirect to its page for a browser. */
export async function answerFlow(
  reply: FastifyReply,
  route: FlowRoute,
  flow: Flow,
  json: boolean,
  status: 200 | 400,
  csrfToken: string | null,
): Promise<FastifyReply> {
  if (!json) return reply.redirect(flowPageUrl(route.page, flow.id, flow.returnTo), 303);
  const body = route.render === undefined ? renderFlow(flow, csrfToken) : await route.render(flow, csrfToken);
  return reply.status(status).send(body);
}

/** Kratos answers a stale flow with a fresh one: its id in a 410 for JSON clients, a redirect for browsers. */
async function replaceStale(request: FastifyRequest, reply: FastifyReply, route: FlowRoute, stale: Flow, json: boolean): Promise<FastifyReply> {
  const fresh = await route.replace(request, reply, stale);
  if (!json) return reply.redirect(flowPageUrl(route.page, fresh.id, fresh.returnTo), 303);
  throw kratosErrors.flowExpired(stale.expiresAt, fresh.id);
}

function findIn(route: FlowRoute, request: FastifyRequest, id: string): Promise<Flow | null> {
  return route.find === undefined ? findFlow(route.pool, route.kind, id) : route.find(request, id);
}

/** `GET …/flows?id=`: the flow as it stands, 404 when unknown, 410 naming a fresh flow when it expired. */
export async function showFlow(request: FastifyRequest, reply: FastifyReply, route: FlowRoute, id: string): Promise<FlowResponse> {
  const flow = await findIn(route, request, id);
  if (flow === null) throw kratosErrors.flowNotFound();
  await route.admit?.();
  if (isExpired(flow)) {
    const fresh = await route.replace(request, reply, flow);
    throw kratosErrors.flowExpired(flow.expiresAt, fresh.id);
  }
  const csrfToken = csrfCookieToken(request);
  return route.render === undefined ? renderFlow(flow, csrfToken) : route.render(flow, csrfToken);
}

/**
 * Every submission of every flow goes through here before its flow's own step: the flow is found (404, or the page for
 * a browser), a stale one is replaced (410 or a redirect), the form token checked (403 security_csrf_violation) and
 * the kind admitted; then `handle` does the step, answering through the submission's reject, answer and tooMany.
 */
export async function submitFlow<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  route: FlowRoute,
  submitted: Submitted,
  handle: (submission: FlowSubmission) => Promise<T>,
): Promise<T | FastifyReply> {
  const json = wantsJson(request);
  const flow = await findIn(route, request, submitted.flowId);
  if (flow === null) {
    if (json) throw kratosErrors.flowNotFound();
    return reply.redirect(route.page, 303);
  }
  const used = route.reusable !== true && flow.state === 'passed_challenge';
  if (used && submitted.via === 'link' && !json) return reply.redirect(flowPageUrl(route.page, flow.id, flow.returnTo), 303);
  if (isExpired(flow) || used) return replaceStale(request, reply, route, flow, json);
  const csrfToken = csrfCookieToken(request);
  if (submitted.via === 'form' && !csrfAccepted(flow.csrfTokenHash, csrfToken, submitted.csrfToken)) throw kratosErrors.csrfViolation();
  await route.admit?.();

  return handle({
    request,
    reply,
    flow,
    json,
    csrfToken,
    address: clientAddress(request),
    reject: async (ui) => answerFlow(reply, route, await saveFlowUi(route.pool, flow.id, ui), json, 400, csrfToken),
    answer: async (answered, status, token = csrfToken) => answerFlow(reply, route, answered, json, status, token),
    replaceStale: async () => replaceStale(request, reply, route, flow, json),
    tooMany: (retryAfterSeconds, error = kratosErrors.flowRateLimited()) => {
      reply.header('retry-after', String(retryAfterSeconds));
      return error;
    },
  });
}
