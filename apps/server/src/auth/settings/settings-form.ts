import type pg from 'pg';
import { hasLookupCodes } from '../factors/lookup-secrets';
import { readFlowContext, seal, writeFlowContext, type FlowContext } from '../factors/second-factor-store';
import { hasTotp, newTotpSecret } from '../factors/totp';
import { canAddKey, listWebauthnCredentials, registrationOptions, type RelyingParty } from '../factors/webauthn';
import { findFlow, renderFlow, type Flow, type FlowResponse, type FlowState } from '../shared/flow-store';
import type { StoredUi, UiNode } from '../shared/ui-nodes';
import { fillSecrets, settingsNodes } from './settings-nodes';
import { readProfile } from './settings-profile';

/** The form as it stands now, with a fresh WebAuthn challenge and a TOTP key on offer while none is linked. */
export async function buildSettingsUi(
  pool: pg.Pool,
  key: Buffer,
  identityId: string,
  rp: RelyingParty,
  flowContext: FlowContext,
): Promise<{ ui: StoredUi; context: FlowContext }> {
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

/** Moves the flow to `state` with its form and keeps its context (the sealed secrets it offers). */
export async function storeSettingsFlow(pool: pg.Pool, flowId: string, state: FlowState, ui: StoredUi, flowContext: FlowContext): Promise<Flow> {
  await pool.query('update self_service_flows set state = $2, ui = $3 where id = $1', [flowId, state, JSON.stringify(ui)]);
  await writeFlowContext(pool, flowId, flowContext);
  const flow = await findFlow(pool, 'settings', flowId);
  if (flow === null) throw new Error('a settings flow disappeared while it was being updated');
  return flow;
}

/** The flow as Kratos returns it, with the secrets on offer (TOTP key, recovery codes) opened into its nodes. */
export async function renderSettingsFlow(pool: pg.Pool, key: Buffer, flow: Flow, csrfToken: string | null, flowContext?: FlowContext): Promise<FlowResponse> {
  const rendered = renderFlow(flow, csrfToken);
  if (flow.identityId === null) return rendered;
  const stored = flowContext ?? (await readFlowContext(pool, flow.id));
  const profile = await readProfile(pool, flow.identityId);
  return { ...rendered, ui: { ...rendered.ui, nodes: await fillSecrets(rendered.ui.nodes, stored, key, profile.email) } };
}

/** The nodes with the input `name` set to `value`: a refused profile change shows what was typed. */
export function withValue(nodes: readonly UiNode[], name: string, value: string): UiNode[] {
  return nodes.map((node) =>
    node.attributes.node_type === 'input' && node.attributes.name === name ? { ...node, attributes: { ...node.attributes, value } } : node,
  );
}
