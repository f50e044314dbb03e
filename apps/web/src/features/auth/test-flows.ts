import { HttpResponse } from 'msw';
import type { FlowGroup, FlowKind, InputNodeAttributes, SelfServiceFlow, FlowUiNode, UiText } from './api/flow-types';

/** Flow builders for the unit tests of the identity pages, in the shapes the identity service sends. */

export const CSRF_TOKEN = 'csrf-123';

export function csrf(): FlowUiNode {
  return input('default', 'csrf_token', 'hidden', null, { value: CSRF_TOKEN });
}

export function input(
  group: FlowGroup,
  name: string,
  type: string,
  label: string | null,
  attributes: Partial<Omit<InputNodeAttributes, 'node_type' | 'name' | 'type'>> = {},
  messages: UiText[] = [],
): FlowUiNode {
  return {
    type: 'input',
    group,
    attributes: { node_type: 'input', name, type, value: '', disabled: false, ...attributes },
    messages,
    meta: label === null ? {} : { label: { id: 1070000, type: 'info', text: label } },
  };
}

export function submit(group: FlowGroup, name: string, value: string, label: string): FlowUiNode {
  return input(group, name, 'submit', label, { value });
}

export function text(group: FlowGroup, id: string, value: UiText, label: string | null = null): FlowUiNode {
  return { type: 'text', group, attributes: { node_type: 'text', id, text: value }, messages: [], meta: label === null ? {} : { label: { text: label } } };
}

export function image(group: FlowGroup, id: string, src: string, label: string): FlowUiNode {
  return { type: 'img', group, attributes: { node_type: 'img', id, src, width: 256, height: 256 }, messages: [], meta: { label: { text: label } } };
}

export function errorText(text: string, id = 4000001): UiText {
  return { id, type: 'error', text };
}

export function flowOf(kind: FlowKind, id: string, nodes: FlowUiNode[], extra: Partial<SelfServiceFlow> = {}, messages?: UiText[]): SelfServiceFlow {
  return {
    id,
    type: 'browser',
    state: 'choose_method',
    ...extra,
    ui: { action: `/api/auth/self-service/${kind}?flow=${id}`, method: 'POST', nodes, ...(messages === undefined ? {} : { messages }) },
  };
}

/** A copy of the flow with messages under the named field. */
export function withFieldError(flow: SelfServiceFlow, name: string, message: UiText): SelfServiceFlow {
  return {
    ...flow,
    ui: {
      ...flow.ui,
      nodes: flow.ui.nodes.map((node) =>
        node.attributes.node_type === 'input' && node.attributes.name === name ? { ...node, messages: [message] } : node,
      ),
    },
  };
}

/** An identity-service error in Kratos's shape. */
export function kratosError(status: number, id: string | undefined, extra: Record<string, unknown> = {}) {
  return HttpResponse.json({ error: { ...(id === undefined ? {} : { id }), code: status, status: 'Error', message: `failed with ${id ?? status}` }, ...extra }, { status });
}
