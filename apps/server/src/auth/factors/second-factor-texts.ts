import type { UiText } from '../shared/ui-nodes';

/**
 * The texts of the second-factor sign-in step and the settings flow. Ids follow Kratos's numbering (1010xxx sign-in,
 * 1050xxx settings, 1070xxx labels, 4000xxx validation errors) so a client may translate by id; the words are ours.
 */
const info = (id: number, text: string, context?: Record<string, unknown>): UiText => ({ id, text, type: 'info', ...(context === undefined ? {} : { context }) });
const error = (id: number, text: string, context?: Record<string, unknown>): UiText => ({ id, text, type: 'error', ...(context === undefined ? {} : { context }) });

export const factorTexts = {
  // Sign-in, second step.
  secondStep: () => info(1010004, 'Finish signing in with your second factor.'),
  totpCodeLabel: () => info(1070006, 'Authentication code'),
  useTotp: () => info(1010009, 'Use authenticator app'),
  lookupLabel: () => info(1070012, 'Backup recovery code'),
  useLookup: () => info(1010010, 'Use backup recovery code'),
  useSecurityKey: () => info(1010008, 'Use security key'),
  methodNotSetUp: () => error(4010002, 'This method is not set up for your account.'),
  wrongTotpCode: () => error(4000008, 'This authentication code is not valid or was already used.'),
  wrongLookupCode: () => error(4000016, 'This backup recovery code is not valid or was already used.'),
  securityKeyFailed: () => error(4000015, 'The security key could not be verified. Try again.'),

  // Settings.
  settingsMethodUnknown: () => error(4010002, 'Use one of the forms on this page.'),
  saved: () => ({ id: 1050001, text: 'Your changes were saved.', type: 'success' }) satisfies UiText,
  save: () => info(1070003, 'Save'),
  emailLabel: () => info(1070002, 'E-Mail', { title: 'E-Mail' }),
  firstNameLabel: () => info(1070002, 'First Name', { title: 'First Name' }),
  lastNameLabel: () => info(1070002, 'Last Name', { title: 'Last Name' }),
  passwordLabel: () => info(1070001, 'Password'),
  invalidEmail: () => error(4000001, 'Enter a valid email address.'),
  emailTaken: () => error(4000007, 'Another account already uses this email address.'),
  nameTooLong: () => error(4000017, 'Keep this under 100 characters.'),

  lookupRegenerate: () => info(1050008, 'Generate new backup recovery codes'),
  lookupConfirm: () => info(1050011, 'Confirm backup recovery codes'),
  lookupReveal: () => info(1050007, 'Reveal backup recovery codes'),
  lookupDisable: () => info(1050016, 'Disable this method'),
  lookupCodesLabel: () => info(1050010, 'Keep these codes somewhere safe. Each one signs you in once if your second factor is lost.'),
  lookupCode: (code: string) => info(1050009, code),
  lookupUsed: () => info(1050014, 'Used'),
  lookupCodes: (texts: readonly string[], secrets: readonly UiText[]) => info(1050015, texts.join(', '), { secrets }),
  lookupNothingToConfirm: () => error(4000018, 'Generate new codes before confirming them.'),

  totpQrLabel: () => info(1050005, 'Authenticator app QR code'),
  totpSecretLabel: () => info(1050006, 'Cannot scan the code? Enter this key in your authenticator app instead.'),
  totpSecret: (secret: string) => info(1050006, secret, { secret }),
  totpVerifyLabel: () => info(1070006, 'Verify code'),
  totpUnlink: () => info(1050003, 'Unlink TOTP Authenticator App'),

  webauthnNameLabel: () => info(1050013, 'Name of the security key'),
  webauthnRegister: () => info(1050012, 'Add security key'),
  webauthnRemove: (name: string, addedAt: string) => info(1050018, `Remove security key "${name}"`, { display_name: name, added_at: addedAt }),
  webauthnRegisterFailed: () => error(4000019, 'The security key could not be registered. Try again.'),
  webauthnUnknownKey: () => error(4000020, 'This security key is not registered to your account.'),
  webauthnTooMany: () => error(4000021, 'Remove a security key before adding another.'),
} as const;
