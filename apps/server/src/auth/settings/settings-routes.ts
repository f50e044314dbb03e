import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import type { Principal } from '../../platform/principal';
import { readFlowContext, type FlowContext } from '../factors/second-factor-store';
import { factorTexts } from '../factors/second-factor-texts';
import { relyingParty } from '../factors/webauthn';
import { SESSION_CHANGED_EVENT } from '../sessions/authenticator';
import { secondFactorGate } from '../sessions/second-factor-gate';
import { findActiveSession, isPrivileged, revokeOtherSessions, upgradeSession } from '../sessions/sessions';
import { ensureCsrfCookie } from '../shared/csrf';
import { flowPageUrl, kratosErrorSchema, LOGIN_PAGE } from '../shared/flow-http';
import { createFlow, findFlow, flowResponseSchema, type Flow, type FlowResponse, type FlowState } from '../shared/flow-store';
import { showFlow, submitFlow, type FlowRoute, type FlowSubmission } from '../shared/flow-submission';
import { kratosErrors } from '../shared/kratos-error';
import { requestOrigin, wantsJson } from '../shared/request-info';
import { parseReturnTo } from '../shared/return-to';
import { withFieldMessages, type UiText } from '../shared/ui-nodes';
import { actionOf, applySettingsAction, needsPrivilege, settingsBodySchema, type SettingsBody } from './settings-actions';
import { buildSettingsUi, renderSettingsFlow, storeSettingsFlow, withValue } from './settings-form';
import { readProfile } from './settings-profile';

export const SETTINGS_PAGE = '/profile-settings';

interface SettingsDeps {
  context: AppContext;
  pool: pg.Pool;
  key: Buffer;
}

function ownerOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw kratosErrors.sessionInactive();
  return request.principal;
}

/** A settings flow found for its owner; another person's flow is refused before anything about it is revealed. */
async function ownFlow(deps: SettingsDeps, principal: Principal, id: string): Promise<Flow | null> {
  const flow = await findFlow(deps.pool, 'settings', id);
  if (flow !== null && flow.identityId !== principal.personId) throw kratosErrors.identityMismatch();
  return flow;
}

async function newSettingsFlow(
  deps: SettingsDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  returnTo: string | undefined,
): Promise<{ flow: Flow; csrfToken: string; context: FlowContext }> {
  const csrfToken = ensureCsrfCookie(request, reply);
  const built = await buildSettingsUi(deps.pool, deps.key, principal.personId, relyingParty(deps.context.config, request), {});
  const created = await createFlow(deps.pool, {
    kind: 'settings',
    returnTo,
    requestUrl: `${requestOrigin(request)}${request.url}`,
    csrfToken,
    identityId: principal.personId,
    ui: built.ui,
  });
  const flow = await storeSettingsFlow(deps.pool, created.id, 'show_form', built.ui, built.context);
  return { flow, csrfToken, context: built.context };
}

/** `GET /self-service/settings/browser`: a new settings flow for the signed-in person. */
async function createBrowserSettings(deps: SettingsDeps, request: FastifyRequest, reply: FastifyReply, rawReturnTo: string | undefined): Promise<FastifyReply | FlowResponse> {
  const principal = ownerOf(request);
  const returnTo = parseReturnTo(rawReturnTo, requestOrigin(request), deps.context.config.returnToAllowlist);
  const { flow, csrfToken, context: flowContext } = await newSettingsFlow(deps, request, reply, principal, returnTo);
  if (!wantsJson(request)) return reply.redirect(flowPageUrl(SETTINGS_PAGE, flow.id, flow.returnTo), 303);
  return renderSettingsFlow(deps.pool, deps.key, flow, csrfToken, flowContext);
}

/**
 * `POST /self-service/settings`: one card's change (profile, password, TOTP, recovery codes, security keys). Changes of
 * credentials or of the sign-in address need a recent sign-in; the form comes back rebuilt, with what happened.
 */
async function submitSettings(deps: SettingsDeps, submission: FlowSubmission, body: SettingsBody): Promise<FastifyReply> {
  const { request, reply, flow, json } = submission;
  const principal = ownerOf(request);
  const session = await findActiveSession(deps.pool, { id: principal.sessionId });
  if (session === null) throw kratosErrors.sessionInactive();
  const identityId = principal.personId;
  const rp = relyingParty(deps.context.config, request);
  const flowContext = await readFlowContext(deps.pool, flow.id);
  const current = await readProfile(deps.pool, identityId);
  const action = actionOf(body);

  if (needsPrivilege(action, current) && !isPrivileged(session)) {
    const settingsPage = `${SETTINGS_PAGE}?${new URLSearchParams({ flow: flow.id }).toString()}`;
    const target = `${LOGIN_PAGE}?refresh=true&return_to=${encodeURIComponent(settingsPage)}`;
    if (!json) return reply.redirect(target, 303);
    throw kratosErrors.refreshRequired(target);
  }

  const outcome = await applySettingsAction(deps.pool, deps.key, action, { identityId, current, flowContext, rp });
  const built = await buildSettingsUi(deps.pool, deps.key, identityId, rp, outcome.context);
  let nodes = built.ui.nodes;
  let messages: UiText[] = [];
  let state: FlowState = 'show_form';
  if (outcome.kind === 'saved') {
    messages = [factorTexts.saved()];
    state = 'success';
    if (outcome.upgrade !== undefined && session.aal === 'aal1') await upgradeSession(deps.pool, session.id, outcome.upgrade);
    if (outcome.credentialChanged) await revokeOtherSessions(deps.pool, identityId, session.id);
    deps.context.bus.publish({ name: SESSION_CHANGED_EVENT, payload: {} });
  } else if (outcome.kind === 'rejected') {
    messages = outcome.messages;
    if (outcome.typed !== undefined) {
      nodes = withValue(nodes, 'traits.email', outcome.typed.email);
      nodes = withValue(nodes, 'traits.name.first', outcome.typed.first);
      nodes = withValue(nodes, 'traits.name.last', outcome.typed.last);
    }
    for (const [name, list] of Object.entries(outcome.fieldMessages)) nodes = withFieldMessages(nodes, name, list);
  }
  const updated = await storeSettingsFlow(deps.pool, flow.id, state, { nodes, messages }, built.context);
  return submission.answer(updated, outcome.kind === 'rejected' ? 400 : 200);
}

/** Kratos's settings flow for the signed-in person; a session owing its second factor is sent to that step first. */
export function registerSettingsFlow(auth: FastifyInstance, context: AppContext): void {
  const deps: SettingsDeps = { context, pool: context.db.pool, key: context.config.secretKey };
  const route: FlowRoute = {
    kind: 'settings',
    page: SETTINGS_PAGE,
    pool: deps.pool,
    find: (request, id) => ownFlow(deps, ownerOf(request), id),
    replace: async (request, reply, stale) => (await newSettingsFlow(deps, request, reply, ownerOf(request), stale.returnTo ?? undefined)).flow,
    render: (flow, csrfToken) => renderSettingsFlow(deps.pool, deps.key, flow, csrfToken),
    reusable: true,
  };
  const gate = secondFactorGate(deps.pool);
  const api = auth.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/self-service/settings/browser',
    {
      config: { permission: 'authenticated' },
      onRequest: gate,
      schema: {
        tags: ['auth'],
        summary: 'Create a settings flow for the signed-in person (JSON with Accept: application/json, otherwise a redirect to /profile-settings)',
        querystring: z.object({ return_to: z.string().max(2048).optional() }),
        response: { 200: flowResponseSchema, 400: kratosErrorSchema, 401: kratosErrorSchema, 403: kratosErrorSchema },
      },
    },
    async (request, reply) => createBrowserSettings(deps, request, reply, request.query.return_to),
  );

  api.get(
    '/self-service/settings/flows',
    {
      config: { permission: 'authenticated' },
      onRequest: gate,
      schema: {
        tags: ['auth'],
        summary: 'Get a settings flow of the signed-in person',
        querystring: z.object({ id: z.string().max(64) }),
        response: { 200: flowResponseSchema, 401: kratosErrorSchema, 403: kratosErrorSchema, 404: kratosErrorSchema, 410: kratosErrorSchema },
      },
    },
    async (request, reply) => showFlow(request, reply, route, request.query.id),
  );

  api.post(
    '/self-service/settings',
    {
      config: { permission: 'authenticated' },
      onRequest: gate,
      schema: {
        tags: ['auth'],
        summary: 'Submit a settings flow (JSON or form-encoded): profile, password, TOTP, backup recovery codes or security keys',
        querystring: z.object({ flow: z.string().max(64) }),
        body: settingsBodySchema,
        response: {
          200: flowResponseSchema,
          400: z.union([flowResponseSchema, kratosErrorSchema]),
          401: kratosErrorSchema,
          403: kratosErrorSchema,
          404: kratosErrorSchema,
          410: kratosErrorSchema,
        },
      },
    },
    async (request, reply) =>
      submitFlow(request, reply, route, { via: 'form', flowId: request.query.flow, csrfToken: request.body.csrf_token }, (submission) =>
        submitSettings(deps, submission, request.body),
      ),
  );
}
