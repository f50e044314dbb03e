export type UiTextType = 'info' | 'error' | 'success';

export interface UiText {
  id: number;
  type: UiTextType;
  text: string;
}

export type FlowGroup = 'default' | 'password' | 'oidc' | 'profile' | 'lookup_secret' | 'totp' | 'webauthn';

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

/** A self-service flow (login, registration, recovery, verification, settings) as the identity service sends it. */
export interface SelfServiceFlow {
  id: string;
  type?: 'browser' | 'api';
  return_to?: string;
  requested_aal?: string;
  refresh?: boolean;
  ui: UiContainer;
}

export type FlowValues = Record<string, string | boolean>;
