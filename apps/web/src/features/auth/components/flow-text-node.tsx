import { CopyButton } from '@/components/button/copy-button';
import type { TextNodeAttributes, UiText } from '../api/flow-types';

/** Kratos's message id of a spent recovery code; the text 'Used' is checked too, for services that only set it. */
const USED_CODE_MESSAGE_ID = 1050014;

interface RecoveryCode {
  key: string;
  text: string;
  used: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The codes of a `lookup_secret_codes` node: its `context.secrets`, or the comma-separated text as a fallback. */
function recoveryCodes(text: UiText): RecoveryCode[] {
  const secrets = text.context?.secrets;
  if (Array.isArray(secrets)) {
    return secrets.filter(isRecord).map((secret, index) => {
      const value = typeof secret.text === 'string' ? secret.text : '';
      return { key: `${index}-${value}`, text: value, used: secret.id === USED_CODE_MESSAGE_ID || value === 'Used' };
    });
  }
  return text.text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, index) => ({ key: `${index}-${part}`, text: part, used: part === 'Used' }));
}

function RecoveryCodes({ text, label }: { text: UiText; label: string | null }) {
  const codes = recoveryCodes(text);
  const unused = codes.filter((code) => !code.used).map((code) => code.text);
  return (
    <div className="space-y-3 rounded-md border border-amber-200 bg-amber-50 p-3">
      <p className="text-sm font-medium text-gray-900">{label ?? 'Keep these codes somewhere safe, such as a password manager. Each one works once.'}</p>
      <ul aria-label="Backup recovery codes" className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {codes.map((code) =>
          code.used ? (
            <li key={code.key} className="rounded border border-gray-200 bg-gray-100 px-2 py-1 text-center text-sm text-gray-500">
              Used
            </li>
          ) : (
            <li key={code.key} className="rounded border border-gray-200 bg-white px-2 py-1 text-center font-mono text-sm text-gray-900">
              {code.text}
            </li>
          ),
        )}
      </ul>
      {unused.length > 0 && <CopyButton text={unused.join('\n')} label="Copy the backup recovery codes" />}
    </div>
  );
}

function SecretKey({ text, label }: { text: UiText; label: string | null }) {
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-gray-700">{label ?? 'Secret key for manual entry'}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded border border-gray-200 bg-gray-50 px-2 py-1 font-mono text-sm break-all text-gray-900">{text.text}</code>
        <CopyButton text={text.text} label="Copy the secret key" />
      </div>
    </div>
  );
}

/** A text node of a flow: the recovery-code grid, the TOTP secret to type in by hand, or plain text. */
export function FlowTextNode({ attributes, label }: { attributes: TextNodeAttributes; label: string | null }) {
  if (attributes.id === 'lookup_secret_codes') return <RecoveryCodes text={attributes.text} label={label} />;
  if (attributes.id === 'totp_secret_key') return <SecretKey text={attributes.text} label={label} />;
  return (
    <div>
      {label !== null && <p className="text-sm font-medium text-gray-700">{label}</p>}
      <p className="font-mono text-sm break-all text-gray-900">{attributes.text.text}</p>
    </div>
  );
}
