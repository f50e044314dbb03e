import { codeFlowMessages } from '../shared/code-flow';
import { hasControlCharacters, isEmailAddress, printable } from '../shared/form-text';
import { passwordPolicyProblems } from '../shared/password-policy';
import { csrfNode, inputNode, uiMessages, type UiNode, type UiText } from '../shared/ui-nodes';

const NAME_MAX_LENGTH = 100;

/** What a person signs up with: the traits of the new identity (email normalized, names trimmed). */
export interface Traits {
  email: string;
  first: string;
  last: string;
}

export const registrationMessages = {
  duplicate: (): UiText => ({
    id: 4000007,
    text: 'This email address already belongs to an account. Sign in, or recover the account if its password is lost.',
    type: 'error',
  }),
  controlCharacters: (): UiText => ({
    id: 4000001,
    text: 'Remove the control characters (tabs, line breaks and the like) from this field.',
    type: 'error',
  }),
  nameTooLong: (): UiText => ({
    // The settings flow uses this id for the same rule on the same fields.
    id: 4000017,
    text: `Use at most ${NAME_MAX_LENGTH} characters.`,
    type: 'error',
    context: { max_length: NAME_MAX_LENGTH },
  }),
} as const;

function label(text: string): UiText {
  return { id: 1070002, text, type: 'info', context: { title: text } };
}

/** The registration form; the typed values come back after a refusal, the password never does. */
export function registrationNodes(values: Partial<Traits> = {}): UiNode[] {
  const value = (text: string | undefined): { value?: string } => (text === undefined ? {} : { value: printable(text) });
  return [
    csrfNode(),
    inputNode('default', { name: 'traits.email', type: 'email', required: true, autocomplete: 'email', ...value(values.email) }, label('E-Mail')),
    inputNode('default', { name: 'traits.name.first', type: 'text', required: true, autocomplete: 'given-name', ...value(values.first) }, label('First Name')),
    inputNode('default', { name: 'traits.name.last', type: 'text', required: true, autocomplete: 'family-name', ...value(values.last) }, label('Last Name')),
    inputNode('password', { name: 'password', type: 'password', required: true, autocomplete: 'new-password' }, { id: 1070001, text: 'Password', type: 'info' }),
    inputNode('password', { name: 'method', type: 'submit', value: 'password' }, { id: 1040001, text: 'Sign up', type: 'info' }),
  ];
}

/** The messages under each field of a registration that cannot go ahead as typed; empty when it can. */
export function registrationProblems(traits: Traits, password: string): Record<string, UiText[]> {
  const problems: Record<string, UiText[]> = {};
  if (traits.email === '') problems['traits.email'] = [uiMessages.missingProperty('traits.email')];
  else if (!isEmailAddress(traits.email)) problems['traits.email'] = [codeFlowMessages.invalidEmail()];
  for (const [name, value] of [['traits.name.first', traits.first], ['traits.name.last', traits.last]] as const) {
    if (value === '') problems[name] = [uiMessages.missingProperty(name)];
    else if ([...value].length > NAME_MAX_LENGTH) problems[name] = [registrationMessages.nameTooLong()];
    else if (hasControlCharacters(value)) problems[name] = [registrationMessages.controlCharacters()];
  }
  if (password === '') problems.password = [uiMessages.missingProperty('password')];
  else {
    const weak = passwordPolicyProblems(password, traits.email === '' ? [] : [traits.email]);
    if (weak.length > 0) problems.password = weak;
  }
  return problems;
}
