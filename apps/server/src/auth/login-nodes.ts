import { csrfNode, inputNode, type UiNode } from './ui-nodes';

/**
 * The password login form. A refresh flow (re-authentication of the signed-in person) carries their identifier as a
 * hidden field, so only the password is asked again.
 */
export function loginNodes(options: { identifier?: string; refreshOf?: string } = {}): UiNode[] {
  const identifier =
    options.refreshOf === undefined
      ? inputNode(
          'default',
          { name: 'identifier', type: 'text', value: options.identifier ?? '', required: true, autocomplete: 'username' },
          { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail' } },
        )
      : inputNode('default', { name: 'identifier', type: 'hidden', value: options.refreshOf, required: true });
  return [
    csrfNode(),
    identifier,
    inputNode(
      'password',
      { name: 'password', type: 'password', required: true, autocomplete: 'current-password' },
      { id: 1070001, text: 'Password', type: 'info' },
    ),
    inputNode('password', { name: 'method', type: 'submit', value: 'password' }, { id: 1010001, text: 'Sign in', type: 'info' }),
  ];
}
