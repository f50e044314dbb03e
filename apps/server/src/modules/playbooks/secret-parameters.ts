import type { PlaybookParameter } from '@opsdeck/shared';
import { isSecretEnvelope, openBound, sealBound, type SecretBinding, type SecretEnvelope } from '../../platform/sealed-values';

/**
 * Mission Control's `secret` parameters (ADR 0071): a run stores the value sealed for its playbook and parameter
 * (ADR 0062's bound envelopes), so the run, the data API and the run page only ever hold `{"$encrypted": …}` text;
 * sending that text back (a re-run) keeps the secret. The worker opens it for the run alone and scrubs it from what
 * the actions keep.
 */

function binding(playbookId: string, name: string): SecretBinding {
  return { kind: 'playbook', resource: playbookId, path: `parameters.${name}`, destination: 'run' };
}

function envelopeOf(text: string): SecretEnvelope | null {
  if (!text.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isSecretEnvelope(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function secretNames(definitions: readonly PlaybookParameter[]): string[] {
  return definitions.filter((definition) => definition.type === 'secret').map((definition) => definition.name);
}

/** The values with each non-empty secret parameter sealed as envelope text; one that is envelope text already stays. */
export function sealSecretParameters(key: Buffer, playbookId: string, definitions: readonly PlaybookParameter[], values: Record<string, string>): Record<string, string> {
  const sealed = { ...values };
  for (const name of secretNames(definitions)) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined || value === '' || envelopeOf(value) !== null) continue;
    sealed[name] = JSON.stringify(sealBound(key, value, binding(playbookId, name)));
  }
  return sealed;
}

/**
 * The values with each secret parameter opened, and the opened texts (to scrub from results). Throws SealedValueError
 * when one does not open for this playbook and parameter.
 */
export function openSecretParameters(
  key: Buffer,
  playbookId: string,
  definitions: readonly PlaybookParameter[],
  values: Readonly<Record<string, string>>,
): { values: Record<string, string>; secrets: string[] } {
  const opened = { ...values };
  const secrets: string[] = [];
  for (const name of secretNames(definitions)) {
    const envelope = envelopeOf(Object.hasOwn(values, name) ? (values[name] ?? '') : '');
    if (envelope === null) continue;
    const text = openBound(key, envelope, binding(playbookId, name));
    opened[name] = text;
    if (text !== '') secrets.push(text);
  }
  return { values: opened, secrets };
}
