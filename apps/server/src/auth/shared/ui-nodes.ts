import type { Expect, SameType, UiText } from '@opsdeck/shared';
import { z } from 'zod';

/**
 * The form description every self-service flow carries, in Kratos's shape, so the web renders any flow generically
 * from its nodes. Message ids follow Kratos's numbering (1xxxxxx info, 4xxxxxx validation errors) for clients that
 * translate by id.
 */
export const uiTextSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  type: z.enum(['info', 'error', 'success']),
  context: z.record(z.string(), z.unknown()).optional(),
});
// The web renders the same texts: the shared type is their one definition, and this stops compiling if the two part.
type _UiTextIsShared = Expect<SameType<z.infer<typeof uiTextSchema>, UiText>>;
export type { UiText };

export const UI_NODE_GROUPS = ['default', 'password', 'oidc', 'profile', 'lookup_secret', 'totp', 'webauthn'] as const;
export type UiNodeGroup = (typeof UI_NODE_GROUPS)[number];

const inputAttributesSchema = z.object({
  node_type: z.literal('input'),
  name: z.string(),
  type: z.enum(['text', 'password', 'email', 'hidden', 'checkbox', 'submit', 'button', 'number', 'tel', 'url']),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  required: z.boolean().optional(),
  disabled: z.boolean(),
  autocomplete: z.string().optional(),
  pattern: z.string().optional(),
});

// The other attribute kinds of spec 002 §3 (text, anchor, image, script) are part of the contract the web renders.
const textAttributesSchema = z.object({ node_type: z.literal('text'), id: z.string(), text: uiTextSchema });
const anchorAttributesSchema = z.object({ node_type: z.literal('a'), id: z.string(), href: z.string(), title: uiTextSchema });
const imageAttributesSchema = z.object({
  node_type: z.literal('img'),
  id: z.string(),
  src: z.string(),
  width: z.number(),
  height: z.number(),
});
const scriptAttributesSchema = z.object({
  node_type: z.literal('script'),
  id: z.string(),
  src: z.string(),
  async: z.boolean(),
  type: z.string(),
  integrity: z.string(),
  crossorigin: z.string(),
  referrerpolicy: z.string(),
  nonce: z.string(),
});

export const uiNodeSchema = z.object({
  type: z.enum(['input', 'text', 'a', 'img', 'script']),
  group: z.enum(UI_NODE_GROUPS),
  attributes: z.discriminatedUnion('node_type', [
    inputAttributesSchema,
    textAttributesSchema,
    anchorAttributesSchema,
    imageAttributesSchema,
    scriptAttributesSchema,
  ]),
  messages: z.array(uiTextSchema),
  meta: z.object({ label: uiTextSchema.optional() }),
});
export type UiNode = z.infer<typeof uiNodeSchema>;
type InputAttributes = z.infer<typeof inputAttributesSchema>;

/** What is stored per flow: the form without action/method (derived from the flow) and without the CSRF value. */
export const storedUiSchema = z.object({ nodes: z.array(uiNodeSchema), messages: z.array(uiTextSchema).optional() });
export type StoredUi = z.infer<typeof storedUiSchema>;

export const CSRF_FIELD = 'csrf_token';

export function inputNode(group: UiNodeGroup, attributes: Omit<InputAttributes, 'node_type' | 'disabled'>, label?: UiText): UiNode {
  return {
    type: 'input',
    group,
    attributes: { ...attributes, node_type: 'input', disabled: false },
    messages: [],
    meta: label === undefined ? {} : { label },
  };
}

export function csrfNode(): UiNode {
  return inputNode('default', { name: CSRF_FIELD, type: 'hidden', value: '', required: true });
}

export const uiMessages = {
  invalidCredentials: (): UiText => ({
    id: 4000006,
    text: 'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
    type: 'error',
  }),
  missingProperty: (property: string): UiText => ({
    id: 4000002,
    text: `Property ${property} is missing.`,
    type: 'error',
    context: { property },
  }),
  unknownMethod: (): UiText => ({
    id: 4010002,
    text: 'This sign-in method is not available; use the password form.',
    type: 'error',
  }),
  refreshIdentity: (): UiText => ({
    id: 1010003,
    text: 'Please confirm this action by verifying that it is you.',
    type: 'info',
  }),
} as const;

/** Fills the CSRF node with this browser's token (or empties it), leaving every other node untouched. */
export function withCsrfValue(nodes: readonly UiNode[], token: string): UiNode[] {
  return nodes.map((node) =>
    node.attributes.node_type === 'input' && node.attributes.name === CSRF_FIELD
      ? { ...node, attributes: { ...node.attributes, value: token } }
      : node,
  );
}

/** Attaches validation messages to the named input, the way Kratos reports a field's errors under that field. */
export function withFieldMessages(nodes: readonly UiNode[], name: string, messages: UiText[]): UiNode[] {
  return nodes.map((node) =>
    node.attributes.node_type === 'input' && node.attributes.name === name ? { ...node, messages } : node,
  );
}
