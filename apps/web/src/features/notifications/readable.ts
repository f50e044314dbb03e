/**
 * Notifications in words a person reads at a glance (#34 item 14): a templated title, a connection reference or a
 * recipient key is what the server stores, not what the list should say.
 */

const TEMPLATE_MARK = /\{\{|\{%/;

export function isTemplated(text: string | null): boolean {
  return text !== null && TEMPLATE_MARK.test(text);
}

/** 'config.unhealthy' → 'Config unhealthy', 'playbook.approval.inserted' → 'Playbook approval inserted'. */
export function eventLabel(event: string): string {
  const words = event.split('.').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The list's title: the title when it is plain text; for a title that is a template (filled in per message) or none,
 * the notification's name, else what it sends on.
 */
export function notificationHeading(row: { title: string | null; name?: string | null; events: readonly string[] }): string {
  if (row.title !== null && row.title.trim() !== '' && !isTemplated(row.title)) return row.title;
  if (row.name !== undefined && row.name !== null && row.name.trim() !== '') return row.name;
  return row.events.map(eventLabel).join(', ');
}

/** `connection://namespace/name`, `namespace/name` or a bare name → the connection's name. */
export function connectionName(reference: string): string {
  const bare = reference.replace(/^connection:\/\//, '');
  return bare.slice(bare.lastIndexOf('/') + 1) || bare;
}

/**
 * A send-history recipient key in words: `email:ada@x` → the address; `service:connection://ns/slack#ops` → 'slack
 * (ops)'; the holding rows of waitFor and of a fallback, and the rows of filter, template, repeat and inhibition skips,
 * as what they are.
 */
export function recipientText(key: string): string {
  if (key.startsWith('email:')) return key.slice('email:'.length);
  if (key.startsWith('service:')) {
    const rest = key.slice('service:'.length);
    const hash = rest.indexOf('#');
    const connection = connectionName(hash === -1 ? rest : rest.slice(0, hash));
    return hash === -1 ? connection : `${connection} (${rest.slice(hash + 1)})`;
  }
  if (key === 'waitFor') return 'Waiting (waitFor)';
  if (key === 'fallback') return 'Waiting for the fallback';
  if (key === 'inhibition') return 'Inhibited';
  return key;
}
