import type { UiText } from '@opsdeck/shared';

export type { FlowKind, UiText, UiTextType } from '@opsdeck/shared';

/** Spec 002 §3's groups, plus Kratos's `code` and `link` of the email flows. */
export type FlowGroup = 'default' | 'password' | 'oidc' | 'profile' | 'lookup_secret' | 'totp' | 'webauthn' | 'code' | 'link';

export interface InputNodeAttributes {
  node_type: 'input';
  name: string;
  type: string;
  value?: string | number | boolean | null;
  required?: boolean;
  disabled: boolean;
  autocomplete?: string;
  pattern?: string;
}

export interface AnchorNodeAttributes {
  node_type: 'a';
  id: string;
  href: string;
  title: UiText;
}

export interface ImageNodeAttributes {
  node_type: 'img';
  id: string;
  src: string;
  width?: number;
  height?: number;
}

export interface TextNodeAttributes {
  node_type: 'text';
  id: string;
  text: UiText;
}

export interface ScriptNodeAttributes {
  node_type: 'script';
  id: string;
  src: string;
}

export type UiNodeAttributes = InputNodeAttributes | AnchorNodeAttributes | ImageNodeAttributes | TextNodeAttributes | ScriptNodeAttributes;

/**
 * A node of a flow's form as the web renders it: Kratos's vocabulary (the `code` and `link` groups, any input type, a
 * label without an id), wider than the nodes this project's server writes, so the form renders any flow it is sent.
 */
export interface FlowUiNode {
  type: UiNodeAttributes['node_type'];
  group: FlowGroup;
  attributes: UiNodeAttributes;
  messages: UiText[];
  meta: { label?: UiText | { text: string } };
}

export interface UiContainer {
  action: string;
  method: string;
  messages?: UiText[];
  nodes: FlowUiNode[];
}

/** A self-service flow (login, registration, recovery, verification, settings) as the identity service sends it. */
export interface SelfServiceFlow {
  id: string;
  type?: 'browser' | 'api';
  /** choose_method, sent_email, passed_challenge, show_form or success, depending on the kind. */
  state?: string;
  return_to?: string;
  requested_aal?: string;
  refresh?: boolean;
  ui: UiContainer;
}

export type FlowValues = Record<string, string | boolean>;
