import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import type { Principal } from '../../platform/principal';
import { SESSION_CHANGED_EVENT } from '../sessions/authenticator';
import { csrfAccepted, csrfCookieToken, ensureCsrfCookie } from '../shared/csrf';
import { flowPageUrl, kratosErrorSchema } from '../shared/flow-http';
import { createFlow, findFlow, flowResponseSchema, isExpired, renderFlow, type Flow, type FlowResponse, type FlowState } from '../shared/flow-store';
import { kratosErrors } from '../shared/kratos-error';
import { disableLookupCodes, generateLookupCodes, hasLookupCodes, revealLookupCodes, saveLookupCodes } from '../factors/lookup-secrets';
import { passwordPolicyProblems } from '../shared/password-policy';
import { requestOrigin, wantsJson } from '../shared/request-info';
import { parseReturnTo } from '../shared/return-to';
import { secondFactorGate } from '../login/second-factor';
import { readFlowContext, seal, sealList, unseal, unsealList, writeFlowContext, type FlowContext } from '../factors/second-factor-store';
import { factorTexts } from '../factors/second-factor-texts';
import { findActiveSession, isPrivileged, revokeOtherSessions, upgradeSession, type SecondFactorMethod } from '../sessions/sessions';
import { fillSecrets, settingsNodes } from './settings-nodes';
import { emailTaken, isEmail, MAX_NAME_LENGTH, readProfile, savePassword, saveProfile, type Profile } from './settings-profile';
import { hasTotp, linkTotp, newTotpSecret, totpStep, unlinkTotp } from '../factors/totp';
import { uiMessages, withFieldMessages, type StoredUi, type UiNode, type UiText } from '../shared/ui-nodes';
import { canAddKey, listWebauthnCredentials, registerWebauthnKey, registrationOptions, relyingParty, removeWebauthnKey, type RelyingParty } from '../factors/webauthn';

export const SETTINGS_PAGE = '/profile-settings';
const LOGIN_PAGE = '/login';
const DEFAULT_KEY_NAME = 'Security key';

const flag = z.union([z.boolean(), z.enum(['true', 'false', ''])]).optional();
const isSet = (value: z.infer<typeof flag>): boolean => value === true || value === 'true';
const text = (max: number) => z.string().max(max).optional();

/** The node names, flat as a form posts them; JSON clients may nest the traits instead (`{traits: {email}}`). */
const settingsBodySchema = z.object({
  csrf_token: text(200),
  method: text(64),
  'traits.email': text(320),
  'traits.name.first': text(1000),
  'traits.name.last': text(1000),
  traits: z
    .object({ email: text(320), name: z.object({ first: text(1000), last: text(1000) }).partial().optional() })
    .partial()
    .optional(),
  password: text(1024),
  totp_code: text(64),
  totp_unlink: flag,
  lookup_secret_regenerate: flag,
  lookup_secret_confirm: flag,
  lookup_secret_reveal: flag,
  lookup_secret_disable: flag,
  webauthn_register: text(65536),
  webauthn_register_displayname: text(1000),
  webauthn_remove: text(1024),
});
type SettingsBody = z.infer<typeof settingsBodySchema>;

type SettingsAction =
  | { kind: 'profile'; email: string | undefined; first: string | undefined; last: string | undefined }
  | { kind: 'password'; password: string | undefined }
  | { kind: 'totp_link'; code: string | undefined }
  | { kind: 'totp_unlink' }
  | { kind: 'lookup_regenerate' | 'lookup_confirm' | 'lookup_reveal' | 'lookup_disable' }
  | { kind: 'webauthn_register'; response: string | undefined; name: string | undefined }
  | { kind: 'webauthn_remove'; id: string }
  | { kind: 'unknown' };

/** Which form was submitted: a card's flag button wins over `method`, as each card posts only its own button. */
function actionOf(body: SettingsBody): SettingsAction {
  if (body.webauthn_remove !== undefined && body.webauthn_remove !== '') return { kind: 'webauthn_remove', id: body.webauthn_remove };
  if (isSet(body.lookup_secret_confirm)) return { kind: 'lookup_confirm' };
  if (isSet(body.lookup_secret_reveal)) return { kind: 'lookup_reveal' };
  if (isSet(body.lookup_secret_regenerate)) return { kind: 'lookup_regenerate' };
  if (isSet(body.lookup_secret_disable)) return { kind: 'lookup_disable' };
  if (isSet(body.totp_unlink)) return { kind: 'totp_unlink' };
  switch (body.method) {
    case 'profile':
      return {
        kind: 'profile',
        email: body['traits.email'] ?? body.traits?.email,
        first: body['traits.name.first'] ?? body.traits?.name?.first,
        last: body['traits.name.last'] ?? body.traits?.name?.last,
      };
    case 'password':
      return { kind: 'password', password: body.password };
    case 'totp':
      return { kind: 'totp_link', code: body.totp_code };
    case 'webauthn':
      return { kind: 'webauthn_register', response: body.webauthn_register, name: body.webauthn_register_displayname };
    default:
      return { kind: 'unknown' };
  }
}

/** A credential change, or a change of the address that signs in, needs a recent sign-in (sessions.ts). */
function needsPrivilege(action: SettingsAction, current: Profile): boolean {
  if (action.kind === 'unknown') return false;
  if (action.kind !== 'profile') return true;
  return action.email !== undefined && action.email.trim().toLowerCase() !== current.email.toLowerCase();
}

type Outcome =
  | { kind: 'saved'; context: FlowContext; credentialChanged: boolean; upgrade?: SecondFactorMethod }
  | { kind: 'shown'; context: FlowContext }
  | { kind: 'rejected'; context: FlowContext; messages: UiText[]; fieldMessages: Record<string, UiText[]>; typed?: Profile };

const rejected = (context: FlowContext, messages: UiText[], fieldMessages: Record<string, UiText[]> = {}, typed?: Profile): Outcome => ({
  kind: 'rejected',
  context,
  messages,
  fieldMessages,
  ...(typed === undefined ? {} : { typed }),
});

/** The recovery codes on show belong to the one answer after generating or revealing them; any other step hides them. */
function withoutShownCodes(context: FlowContext): FlowContext {
  return { ...context, lookup_codes: undefined, lookup_display: undefined };
}

function withValue(nodes: readonly UiNode[], name: string, value: string): UiNode[] {
  return nodes.map((node) =>
    node.attributes.node_type === 'input' && node.attributes.name === name ? { ...node, attributes: { ...node.attributes, value } } : node,
  );
}

export async function registerSettingsFlow(auth: FastifyInstance, context: AppContext): Promise<void> {
  const pool = context.db.pool;
  const key = context.config.secretKey;
  const api = auth.withTypeProvider<ZodTypeProvider>();
  const gate = secondFactorGate(pool);

  /** The form as it stands now, with a fresh WebAuthn challenge and a TOTP key on offer while none is linked. */
  async function buildUi(identityId: string, rp: RelyingParty, flowContext: FlowContext): Promise<{ ui: StoredUi; context: FlowContext }> {
    const [profile, totpLinked, lookupSaved, keys] = await Promise.all([
      readProfile(pool, identityId),
      hasTotp(pool, identityId),
      hasLookupCodes(pool, identityId),
      listWebauthnCredentials(pool, identityId),
    ]);
    const registration = canAddKey(keys)
      ? await registrationOptions(rp, { id: identityId, email: profile.email, displayName: `${profile.first} ${profile.last}`.trim() || profile.email }, keys)
      : null;
    const next: FlowContext = {
      ...flowContext,
      totp_secret: totpLinked ? undefined : (flowContext.totp_secret ?? seal(key, newTotpSecret())),
      webauthn_challenge: registration?.challenge,
    };
    const nodes = settingsNodes({
      profile,
      totpLinked,
      lookupSaved,
      lookupPending: next.lookup_codes !== undefined,
      lookupShown: next.lookup_display !== undefined,
      keys,
      registration,
    });
    return { ui: { nodes, messages: [] }, context: next };
  }

  async function storeFlow(flowId: string, state: FlowState, ui: StoredUi, flowContext: FlowContext): Promise<Flow> {
    await pool.query('update self_service_flows set state = $2, ui = $3 where id = $1', [flowId, state, JSON.stringify(ui)]);
    await writeFlowContext(pool, flowId, flowContext);
    const flow = await findFlow(pool, 'settings', flowId);
    if (flow === null) throw new Error('a settings flow disappeared while it was being updated');
    return flow;
  }

  async function render(flow: Flow, csrfToken: string | null, flowContext?: FlowContext): Promise<FlowResponse> {
    const rendered = renderFlow(flow, csrfToken);
    if (flow.identityId === null) return rendered;
    const stored = flowContext ?? (await readFlowContext(pool, flow.id));
    const profile = await readProfile(pool, flow.identityId);
    return { ...rendered, ui: { ...rendered.ui, nodes: await fillSecrets(rendered.ui.nodes, stored, key, profile.email) } };
  }

  async function newSettingsFlow(request: FastifyRequest, reply: FastifyReply, principal: Principal, returnTo: string | undefined): Promise<{ flow: Flow; csrfToken: string; context: FlowContext }> {
    const csrfToken = ensureCsrfCookie(request, reply);
    const built = await buildUi(principal.personId, relyingParty(context.config, request), {});
    const created = await createFlow(pool, {
      kind: 'settings',
      returnTo,
      requestUrl: `${requestOrigin(request)}${request.url}`,
      csrfToken,
      identityId: principal.personId,
      ui: built.ui,
    });
    const flow = await storeFlow(created.id, 'show_form', built.ui, built.context);
    return { flow, csrfToken, context: built.context };
  }

  function ownerOf(request: FastifyRequest): Principal {
    if (request.principal === null) throw kratosErrors.sessionInactive();
    return request.principal;
  }

  /** A settings flow found for its owner; another person's flow is refused before anything about it is revealed. */
  async function ownFlow(principal: Principal, id: string): Promise<Flow | null> {
    const flow = await findFlow(pool, 'settings', id);
    if (flow !== null && flow.identityId !== principal.personId) throw kratosErrors.identityMismatch();
    return flow;
  }

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
    async (request, reply) => {
      const principal = ownerOf(request);
      const returnTo = parseReturnTo(request.query.return_to, requestOrigin(request), context.config.returnToAllowlist);
      const { flow, csrfToken, context: flowContext } = await newSettingsFlow(request, reply, principal, returnTo);
      if (!wantsJson(request)) return reply.redirect(flowPageUrl(SETTINGS_PAGE, flow.id, flow.returnTo), 303);
      return render(flow, csrfToken, flowContext);
    },
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
    async (request, reply) => {
      const principal = ownerOf(request);
      const flow = await ownFlow(principal, request.query.id);
      if (flow === null) throw kratosErrors.flowNotFound();
      if (isExpired(flow)) {
        const { flow: replacement } = await newSettingsFlow(request, reply, principal, flow.returnTo ?? undefined);
        throw kratosErrors.flowExpired(flow.expiresAt, replacement.id);
      }
      return render(flow, csrfCookieToken(request));
    },
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
    async (request, reply) => {
      const principal = ownerOf(request);
      const json = wantsJson(request);
      const flow = await ownFlow(principal, request.query.flow);
      if (flow === null) {
        if (json) throw kratosErrors.flowNotFound();
        return reply.redirect(SETTINGS_PAGE, 303);
      }
      if (isExpired(flow)) {
        const { flow: replacement } = await newSettingsFlow(request, reply, principal, flow.returnTo ?? undefined);
        if (!json) return reply.redirect(flowPageUrl(SETTINGS_PAGE, replacement.id, replacement.returnTo), 303);
        throw kratosErrors.flowExpired(flow.expiresAt, replacement.id);
      }
      const cookieToken = csrfCookieToken(request);
      if (!csrfAccepted(flow.csrfTokenHash, cookieToken, request.body.csrf_token)) throw kratosErrors.csrfViolation();

      const session = await findActiveSession(pool, { id: principal.sessionId });
      if (session === null) throw kratosErrors.sessionInactive();
      const identityId = principal.personId;
      const rp = relyingParty(context.config, request);
      const flowContext = await readFlowContext(pool, flow.id);
      const current = await readProfile(pool, identityId);
      const action = actionOf(request.body);

      if (needsPrivilege(action, current) && !isPrivileged(session)) {
        const settingsPage = `${SETTINGS_PAGE}?${new URLSearchParams({ flow: flow.id }).toString()}`;
        const target = `${LOGIN_PAGE}?refresh=true&return_to=${encodeURIComponent(settingsPage)}`;
        if (!json) return reply.redirect(target, 303);
        throw kratosErrors.refreshRequired(target);
      }

      const outcome = await apply(action, { identityId, current, flowContext, rp });
      const built = await buildUi(identityId, rp, outcome.context);
      let nodes = built.ui.nodes;
      let messages: UiText[] = [];
      let state: FlowState = 'show_form';
      if (outcome.kind === 'saved') {
        messages = [factorTexts.saved()];
        state = 'success';
        if (outcome.upgrade !== undefined && session.aal === 'aal1') await upgradeSession(pool, session.id, outcome.upgrade);
        if (outcome.credentialChanged) await revokeOtherSessions(pool, identityId, session.id);
        context.bus.publish({ name: SESSION_CHANGED_EVENT, payload: {} });
      } else if (outcome.kind === 'rejected') {
        messages = outcome.messages;
        if (outcome.typed !== undefined) {
          nodes = withValue(nodes, 'traits.email', outcome.typed.email);
          nodes = withValue(nodes, 'traits.name.first', outcome.typed.first);
          nodes = withValue(nodes, 'traits.name.last', outcome.typed.last);
        }
        for (const [name, list] of Object.entries(outcome.fieldMessages)) nodes = withFieldMessages(nodes, name, list);
      }
      const updated = await storeFlow(flow.id, state, { nodes, messages }, built.context);
      if (!json) return reply.redirect(flowPageUrl(SETTINGS_PAGE, updated.id, updated.returnTo), 303);
      const body = await render(updated, cookieToken, built.context);
      return outcome.kind === 'rejected' ? reply.status(400).send(body) : body;
    },
  );

  async function apply(
    action: SettingsAction,
    input: { identityId: string; current: Profile; flowContext: FlowContext; rp: RelyingParty },
  ): Promise<Outcome> {
    const { identityId, current, rp } = input;
    const flowContext = action.kind === 'lookup_regenerate' || action.kind === 'lookup_reveal' ? input.flowContext : withoutShownCodes(input.flowContext);
    switch (action.kind) {
      case 'profile': {
        const typed: Profile = {
          email: (action.email ?? current.email).trim(),
          first: (action.first ?? current.first).trim(),
          last: (action.last ?? current.last).trim(),
        };
        const problems: Record<string, UiText[]> = {};
        if (typed.email === '') problems['traits.email'] = [uiMessages.missingProperty('traits.email')];
        else if (!isEmail(typed.email)) problems['traits.email'] = [factorTexts.invalidEmail()];
        else if (await emailTaken(pool, identityId, typed.email)) problems['traits.email'] = [factorTexts.emailTaken()];
        if (typed.first.length > MAX_NAME_LENGTH) problems['traits.name.first'] = [factorTexts.nameTooLong()];
        if (typed.last.length > MAX_NAME_LENGTH) problems['traits.name.last'] = [factorTexts.nameTooLong()];
        if (Object.keys(problems).length > 0) return rejected(flowContext, [], problems, typed);
        if (!(await saveProfile(pool, identityId, typed))) return rejected(flowContext, [], { 'traits.email': [factorTexts.emailTaken()] }, typed);
        return { kind: 'saved', context: flowContext, credentialChanged: false };
      }
      case 'password': {
        if (action.password === undefined || action.password === '') return rejected(flowContext, [], { password: [uiMessages.missingProperty('password')] });
        const problems = passwordPolicyProblems(action.password, [current.email]);
        if (problems.length > 0) return rejected(flowContext, [], { password: problems });
        await savePassword(pool, identityId, current.email, action.password);
        return { kind: 'saved', context: flowContext, credentialChanged: true };
      }
      case 'totp_link': {
        if (action.code === undefined || action.code.trim() === '') return rejected(flowContext, [], { totp_code: [uiMessages.missingProperty('totp_code')] });
        if (flowContext.totp_secret === undefined || (await hasTotp(pool, identityId))) return rejected(flowContext, [factorTexts.methodNotSetUp()]);
        const secret = unseal(key, flowContext.totp_secret);
        const step = totpStep(secret, action.code);
        if (step === null) return rejected(flowContext, [], { totp_code: [factorTexts.wrongTotpCode()] });
        await linkTotp(pool, key, identityId, secret, step);
        return { kind: 'saved', context: { ...flowContext, totp_secret: undefined }, credentialChanged: true, upgrade: 'totp' };
      }
      case 'totp_unlink': {
        if (!(await unlinkTotp(pool, identityId))) return rejected(flowContext, [factorTexts.methodNotSetUp()]);
        return { kind: 'saved', context: flowContext, credentialChanged: true };
      }
      case 'lookup_regenerate': {
        const codes = sealList(key, generateLookupCodes());
        return { kind: 'shown', context: { ...flowContext, lookup_codes: codes, lookup_display: codes } };
      }
      case 'lookup_reveal': {
        const display = await revealLookupCodes(pool, key, identityId);
        if (display === null) return rejected(withoutShownCodes(flowContext), [factorTexts.methodNotSetUp()]);
        return { kind: 'shown', context: { ...flowContext, lookup_codes: undefined, lookup_display: sealList(key, display) } };
      }
      case 'lookup_confirm': {
        const pending = unsealList(key, input.flowContext.lookup_codes);
        if (pending === null) return rejected(flowContext, [factorTexts.lookupNothingToConfirm()]);
        await saveLookupCodes(pool, key, identityId, pending);
        return { kind: 'saved', context: flowContext, credentialChanged: true };
      }
      case 'lookup_disable': {
        if (!(await disableLookupCodes(pool, identityId))) return rejected(flowContext, [factorTexts.methodNotSetUp()]);
        return { kind: 'saved', context: flowContext, credentialChanged: true };
      }
      case 'webauthn_register': {
        const challenge = flowContext.webauthn_challenge;
        if (action.response === undefined || action.response === '' || challenge === undefined) return rejected(flowContext, [factorTexts.webauthnRegisterFailed()]);
        if (!canAddKey(await listWebauthnCredentials(pool, identityId))) return rejected(flowContext, [factorTexts.webauthnTooMany()]);
        const name = (action.name ?? '').trim().slice(0, MAX_NAME_LENGTH) || DEFAULT_KEY_NAME;
        if (!(await registerWebauthnKey(pool, rp, identityId, challenge, action.response, name))) return rejected(flowContext, [factorTexts.webauthnRegisterFailed()]);
        return { kind: 'saved', context: flowContext, credentialChanged: true, upgrade: 'webauthn' };
      }
      case 'webauthn_remove': {
        if (!(await removeWebauthnKey(pool, identityId, action.id))) return rejected(flowContext, [factorTexts.webauthnUnknownKey()]);
        return { kind: 'saved', context: flowContext, credentialChanged: true };
      }
      case 'unknown':
        return rejected(flowContext, [factorTexts.settingsMethodUnknown()]);
    }
  }
}
