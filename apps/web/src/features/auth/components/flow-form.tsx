import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import { clsx } from 'clsx';
import type { FlowGroup, FlowValues, InputNodeAttributes, SelfServiceFlow, UiNode, UiText } from '../api/flow-types';

export interface FlowFormProps {
  flow: SelfServiceFlow;
  onSubmit(values: FlowValues): Promise<void>;
  /** Only nodes of these groups are shown; `default` (the CSRF token) is always kept. All groups when omitted. */
  groups?: readonly FlowGroup[];
  /** Values that override the flow's own for the named inputs, e.g. an identifier from the address bar. */
  initialValues?: Readonly<Record<string, string>>;
  /** Submit once, as soon as the form is shown. */
  autoSubmit?: boolean;
}

const BUTTON_TYPES: ReadonlySet<string> = new Set(['submit', 'button']);

function labelOf(node: UiNode): string | null {
  return node.meta.label?.text ?? null;
}

function isInput(node: UiNode): node is UiNode & { attributes: InputNodeAttributes } {
  return node.attributes.node_type === 'input';
}

function inputId(flow: SelfServiceFlow, name: string): string {
  return `flow-${flow.id}-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
}

function valueAsString(value: InputNodeAttributes['value']): string {
  return value === undefined || value === null ? '' : String(value);
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

/**
 * Renders any self-service flow (login, registration, recovery, verification, settings) from its `ui.nodes`, so each
 * flow page is only a heading around this form. Inputs stay uncontrolled: the identity service owns validation.
 */
export function FlowForm({ flow, onSubmit, groups, initialValues, autoSubmit = false }: FlowFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const submittingRef = useRef(false);
  const autoSubmittedRef = useRef(false);
  const [pendingButton, setPendingButton] = useState<string | null>(null);

  const nodes = flow.ui.nodes.filter((node) => groups === undefined || node.group === 'default' || groups.includes(node.group));

  useEffect(() => {
    if (!autoSubmit || autoSubmittedRef.current || formRef.current === null) return;
    autoSubmittedRef.current = true;
    const submitter = formRef.current.querySelector<HTMLButtonElement>('button[type="submit"]');
    formRef.current.requestSubmit(submitter ?? undefined);
  }, [autoSubmit, flow.id]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A ref, not state: two clicks in one frame would both see stale state.
    if (submittingRef.current) return;
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const values: FlowValues = {};
    for (const node of nodes) {
      if (!isInput(node) || BUTTON_TYPES.has(node.attributes.type)) continue;
      const { name, type } = node.attributes;
      const element = form.elements.namedItem(name);
      if (!(element instanceof HTMLInputElement)) continue;
      values[name] = type === 'checkbox' ? element.checked : element.value;
    }
    const buttonKey = submitter instanceof HTMLButtonElement ? submitter.dataset.key ?? null : null;
    if (submitter instanceof HTMLButtonElement && submitter.name !== '') values[submitter.name] = submitter.value;
    submittingRef.current = true;
    setPendingButton(buttonKey ?? 'form');
    try {
      await onSubmit(values);
    } finally {
      submittingRef.current = false;
      setPendingButton(null);
    }
  }

  const isSubmitting = pendingButton !== null;

  return (
    <form ref={formRef} action={flow.ui.action} method={flow.ui.method} onSubmit={handleSubmit} noValidate className="space-y-4">
      <FlowMessages messages={flow.ui.messages} />
      {nodes.map((node, index) => {
        const attributes = node.attributes;
        switch (attributes.node_type) {
          case 'input': {
            const key = `${attributes.name}-${valueAsString(attributes.value)}-${index}`;
            if (attributes.type === 'hidden') {
              return <input key={key} type="hidden" name={attributes.name} defaultValue={valueAsString(attributes.value)} />;
            }
            if (BUTTON_TYPES.has(attributes.type)) {
              const isPending = pendingButton === key || (pendingButton === 'form' && attributes.type === 'submit');
              return (
                <button
                  key={key}
                  data-key={key}
                  type={attributes.type === 'submit' ? 'submit' : 'button'}
                  name={attributes.name}
                  value={valueAsString(attributes.value)}
                  disabled={attributes.disabled || isSubmitting}
                  aria-busy={isPending}
                  className="inline-flex w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60"
                >
                  {isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
                  {labelOf(node) ?? valueAsString(attributes.value)}
                </button>
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
              <a key={attributes.id} href={attributes.href} className="block text-sm font-medium text-brand-600 hover:underline">
                {attributes.title.text}
              </a>
            );
          case 'img':
            return <img key={attributes.id} src={attributes.src} width={attributes.width} height={attributes.height} alt={labelOf(node) ?? ''} className="mx-auto" />;
          case 'text':
            return (
              <div key={attributes.id}>
                {labelOf(node) !== null && <p className="text-sm font-medium text-gray-700">{labelOf(node)}</p>}
                <p className="font-mono text-sm break-all text-gray-900">{attributes.text.text}</p>
              </div>
            );
          case 'script':
            // Scripts (WebAuthn) are loaded by the pages that need them, never injected from a flow.
            return null;
        }
      })}
    </form>
  );
}
