import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import { clsx } from 'clsx';
import type { FlowGroup, FlowValues, InputNodeAttributes, SelfServiceFlow, FlowUiNode, UiText } from '../api/flow-types';
import { isWebAuthnTrigger, runWebAuthnCeremony, WebAuthnCeremonyError, webAuthnTarget, type WebAuthnTrigger } from '../webauthn';
import { FlowTextNode } from './flow-text-node';

export interface FlowFormProps {
  flow: SelfServiceFlow;
  onSubmit(values: FlowValues): Promise<void>;
  /** Only nodes of these groups are shown; `default` (the CSRF token) is always kept. All groups when omitted. */
  groups?: readonly FlowGroup[];
  /** Values that override the flow's own for the named inputs, e.g. an identifier from the address bar. */
  initialValues?: Readonly<Record<string, string>>;
  /** Submit once, as soon as the form is shown. */
  autoSubmit?: boolean;
  /** The flow's messages above the fields; off where the page shows them once for several forms. */
  showMessages?: boolean;
  /** Moves the focus to the first field with an error, for a form just answered by the identity service. */
  focusFirstError?: boolean;
}

const BUTTON_TYPES: ReadonlySet<string> = new Set(['submit', 'button']);
/** Buttons that take something away (a second factor, a key, the recovery codes): styled apart from the main action. */
const DESTRUCTIVE_BUTTON = /(?:_unlink|_disable|_remove)$/;

const PRIMARY_BUTTON_CLASS =
  'bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-brand-600';
const DESTRUCTIVE_BUTTON_CLASS = 'border border-red-300 bg-white text-red-700 hover:bg-red-50 focus-visible:outline-red-600';

type InputNode = FlowUiNode & { attributes: InputNodeAttributes };

function labelOf(node: FlowUiNode): string | null {
  return node.meta.label?.text ?? null;
}

function isInput(node: FlowUiNode): node is InputNode {
  return node.attributes.node_type === 'input';
}

function inputId(flow: SelfServiceFlow, name: string): string {
  return `flow-${flow.id}-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
}

function valueAsString(value: InputNodeAttributes['value']): string {
  return value === undefined || value === null ? '' : String(value);
}

/** A button's value as the identity service wrote it: `lookup_secret_regenerate: true` stays a boolean. */
function buttonValue(node: InputNode): string | boolean {
  const value = node.attributes.value;
  return typeof value === 'boolean' ? value : valueAsString(value);
}

export function FlowMessages({ messages }: { messages: readonly UiText[] | undefined }) {
  if (messages === undefined || messages.length === 0) return null;
  return (
    <ul className="space-y-2">
      {messages.map((message) => (
        <li
          key={`${message.id}-${message.text}`}
          role={message.type === 'error' ? 'alert' : 'status'}
          className={clsx(
            'rounded-md border px-3 py-2 text-sm',
            message.type === 'error' && 'border-red-200 bg-red-50 text-red-700',
            message.type === 'success' && 'border-green-200 bg-green-50 text-green-700',
            message.type === 'info' && 'border-blue-200 bg-blue-50 text-blue-700',
          )}
        >
          {message.text}
        </li>
      ))}
    </ul>
  );
}

function FieldMessages({ id, messages }: { id: string; messages: readonly UiText[] }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} className="mt-1 space-y-0.5">
      {messages.map((message) => (
        <p key={`${message.id}-${message.text}`} className={clsx('text-sm', message.type === 'error' ? 'text-red-600' : 'text-gray-600')}>
          {message.text}
        </p>
      ))}
    </div>
  );
}

/** The values of the form's fields (not its buttons), read from the DOM: the inputs are uncontrolled. */
function readFieldValues(form: HTMLFormElement, nodes: readonly FlowUiNode[]): FlowValues {
  const values: FlowValues = {};
  for (const node of nodes) {
    if (!isInput(node) || BUTTON_TYPES.has(node.attributes.type)) continue;
    const { name, type } = node.attributes;
    const element = form.elements.namedItem(name);
    if (!(element instanceof HTMLInputElement)) continue;
    values[name] = type === 'checkbox' ? element.checked : element.value;
  }
  return values;
}

/**
 * Renders any self-service flow (login, registration, recovery, verification, settings) from its `ui.nodes`, so each
 * flow page is only a heading around this form. Inputs stay uncontrolled: the identity service owns validation.
 */
export function FlowForm({ flow, onSubmit, groups, initialValues, autoSubmit = false, showMessages = true, focusFirstError = false }: FlowFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const submittingRef = useRef(false);
  const autoSubmittedRef = useRef(false);
  const [pendingButton, setPendingButton] = useState<string | null>(null);
  const [ceremonyError, setCeremonyError] = useState<{ key: string; message: string } | null>(null);

  const nodes = flow.ui.nodes.filter((node) => groups === undefined || node.group === 'default' || groups.includes(node.group));
  const nodeKey = (node: InputNode, index: number) => `${node.attributes.name}-${valueAsString(node.attributes.value)}-${index}`;
  const buttonsByKey = new Map<string, InputNode>();
  nodes.forEach((node, index) => {
    if (isInput(node) && BUTTON_TYPES.has(node.attributes.type)) buttonsByKey.set(nodeKey(node, index), node);
  });

  useEffect(() => {
    if (!autoSubmit || autoSubmittedRef.current || formRef.current === null) return;
    autoSubmittedRef.current = true;
    const submitter = formRef.current.querySelector<HTMLButtonElement>('button[type="submit"]');
    formRef.current.requestSubmit(submitter ?? undefined);
  }, [autoSubmit, flow.id]);

  useEffect(() => {
    if (!focusFirstError) return;
    formRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);

  /** One submission at a time, whichever button started it, with the spinner on that button. */
  async function send(buttonKey: string, values: () => Promise<FlowValues | null>): Promise<void> {
    // A ref, not state: two clicks in one frame would both see stale state.
    if (submittingRef.current) return;
    submittingRef.current = true;
    setPendingButton(buttonKey);
    setCeremonyError(null);
    try {
      const collected = await values();
      if (collected !== null) await onSubmit(collected);
    } finally {
      submittingRef.current = false;
      setPendingButton(null);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const buttonKey = submitter instanceof HTMLButtonElement ? (submitter.dataset.key ?? null) : null;
    const submitterNode = buttonKey === null ? undefined : buttonsByKey.get(buttonKey);
    // Spec 002 §4: a social sign-in button posts the form natively, so the browser follows the provider's redirects.
    if (submitterNode?.group === 'oidc') return;
    event.preventDefault();
    void send(buttonKey ?? 'form', async () => {
      const values = readFieldValues(form, nodes);
      if (submitterNode !== undefined) {
        values[submitterNode.attributes.name] = buttonValue(submitterNode);
        // Buttons such as `totp_unlink` or `lookup_secret_regenerate` name no method; their group is the method.
        if (values.method === undefined && submitterNode.group !== 'default') values.method = submitterNode.group;
      }
      return values;
    });
  }

  function handleWebAuthn(trigger: WebAuthnTrigger, key: string, optionsValue: string) {
    const form = formRef.current;
    if (form === null) return;
    void send(key, async () => {
      try {
        const credential = await runWebAuthnCeremony(trigger, optionsValue);
        // The credential takes the hidden input's place in the body; writing it into the uncontrolled input would be
        // undone by React's next render of its defaultValue.
        return { ...readFieldValues(form, nodes), [webAuthnTarget(trigger)]: credential, method: 'webauthn' };
      } catch (error) {
        if (!(error instanceof WebAuthnCeremonyError)) throw error;
        setCeremonyError({ key, message: error.message });
        return null;
      }
    });
  }

  const isSubmitting = pendingButton !== null;

  return (
    <form ref={formRef} action={flow.ui.action} method={flow.ui.method} onSubmit={handleSubmit} noValidate className="space-y-4">
      {showMessages && <FlowMessages messages={flow.ui.messages} />}
      {nodes.map((node, index) => {
        const attributes = node.attributes;
        switch (attributes.node_type) {
          case 'input': {
            const key = nodeKey(node as InputNode, index);
            if (attributes.type === 'hidden') {
              return <input key={key} type="hidden" name={attributes.name} defaultValue={valueAsString(attributes.value)} />;
            }
            if (BUTTON_TYPES.has(attributes.type)) {
              const isPending = pendingButton === key || (pendingButton === 'form' && attributes.type === 'submit');
              const trigger = isWebAuthnTrigger(attributes.name) ? attributes.name : null;
              const optionsValue = valueAsString(attributes.value);
              const errorId = `${inputId(flow, attributes.name)}-${index}-error`;
              const failure = ceremonyError?.key === key ? ceremonyError.message : null;
              const isOidc = node.group === 'oidc';
              return (
                <div key={key}>
                  <button
                    data-key={key}
                    type={attributes.type === 'submit' ? 'submit' : 'button'}
                    name={attributes.name}
                    // The trigger's value is the options JSON, not something to post; the ceremony sends the result.
                    value={trigger === null ? optionsValue : undefined}
                    disabled={attributes.disabled || (isSubmitting && !isOidc)}
                    aria-busy={isPending}
                    aria-describedby={failure !== null ? errorId : undefined}
                    onClick={trigger === null ? undefined : () => handleWebAuthn(trigger, key, optionsValue)}
                    className={clsx(
                      'inline-flex w-full items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60',
                      DESTRUCTIVE_BUTTON.test(attributes.name) ? DESTRUCTIVE_BUTTON_CLASS : PRIMARY_BUTTON_CLASS,
                    )}
                  >
                    {isPending && !isOidc && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
                    {labelOf(node) ?? optionsValue}
                  </button>
                  {failure !== null && (
                    <p id={errorId} role="alert" className="mt-1 text-sm text-red-600">
                      {failure}
                    </p>
                  )}
                  <FieldMessages id={`${errorId}-messages`} messages={node.messages} />
                </div>
              );
            }
            const id = inputId(flow, attributes.name);
            const messagesId = `${id}-messages`;
            const hasError = node.messages.some((message) => message.type === 'error');
            const label = labelOf(node) ?? attributes.name;
            const initial = initialValues?.[attributes.name];
            if (attributes.type === 'checkbox') {
              return (
                <div key={key}>
                  <label htmlFor={id} className="flex items-center gap-2 text-sm text-gray-700">
                    <input
                      id={id}
                      type="checkbox"
                      name={attributes.name}
                      defaultChecked={attributes.value === true}
                      disabled={attributes.disabled}
                      aria-invalid={hasError}
                      aria-describedby={node.messages.length > 0 ? messagesId : undefined}
                      className="size-4 rounded border-gray-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
                    />
                    {label}
                  </label>
                  <FieldMessages id={messagesId} messages={node.messages} />
                </div>
              );
            }
            return (
              <div key={key}>
                <label htmlFor={id} className="block text-sm font-medium text-gray-700">
                  {label}
                </label>
                <input
                  id={id}
                  type={attributes.type}
                  name={attributes.name}
                  defaultValue={initial ?? valueAsString(attributes.value)}
                  required={attributes.required}
                  disabled={attributes.disabled}
                  autoComplete={attributes.autocomplete}
                  pattern={attributes.pattern}
                  aria-invalid={hasError}
                  aria-describedby={node.messages.length > 0 ? messagesId : undefined}
                  className={clsx(
                    'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:outline-none focus-visible:ring-2 disabled:bg-gray-100',
                    hasError ? 'border-red-400 focus-visible:ring-red-500' : 'border-gray-300 focus-visible:ring-brand-500',
                  )}
                />
                <FieldMessages id={messagesId} messages={node.messages} />
              </div>
            );
          }
          case 'a':
            return (
              <a key={attributes.id} href={attributes.href} className="block text-sm font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
                {attributes.title.text}
              </a>
            );
          case 'img':
            return (
              <img
                key={attributes.id}
                src={attributes.src}
                width={attributes.width}
                height={attributes.height}
                alt={labelOf(node) ?? (attributes.id === 'totp_qr' ? 'QR code to scan with your authenticator app' : '')}
                className="mx-auto h-auto max-w-full rounded border border-gray-200 bg-white p-2"
              />
            );
          case 'text':
            return <FlowTextNode key={attributes.id} attributes={attributes} label={labelOf(node)} />;
          case 'script':
            // Scripts are never injected from a flow: the WebAuthn ceremony is this bundle's own code (webauthn.ts).
            return null;
        }
      })}
    </form>
  );
}
