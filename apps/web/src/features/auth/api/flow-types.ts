export type UiTextType = 'info' | 'error' | 'success';

export interface UiText {
  id: number;
  type: UiTextType;
  text: string;
  /** Structured parts of the text, e.g. `secrets` of the recovery-code list. */
  context?: Record<string, unknown>;
}

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

export interface UiNode {
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
  nodes: UiNode[];
}

export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

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
