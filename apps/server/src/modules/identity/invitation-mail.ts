import type { IdentityMail } from '../../auth/shared/courier';

/** How long an invitation link works (issue #18: 72 hours). */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

export interface Invitation {
  to: string;
  inviteeName: string;
  inviterName: string;
  role: string;
  link: string;
  expiresAt: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The invitation: who asked, which role, and the link that signs the person in to choose a password. */
export function invitationMail(invitation: Invitation): IdentityMail {
  const until = new Date(invitation.expiresAt).toUTCString();
  const lines = [
    `Hello ${invitation.inviteeName},`,
    '',
    `${invitation.inviterName} has given you an Opsdeck account with the ${invitation.role} role.`,
    'Open this link to choose your password and sign in:',
    '',
    invitation.link,
    '',
    `The link works once, until ${until}. If it has expired, ask for a password reset on the sign-in page.`,
    'If you did not expect this mail, you can ignore it.',
  ];
  const html = [
    `<p>Hello ${escapeHtml(invitation.inviteeName)},</p>`,
    `<p>${escapeHtml(invitation.inviterName)} has given you an Opsdeck account with the ${escapeHtml(invitation.role)} role.</p>`,
    `<p><a href="${escapeHtml(invitation.link)}">Choose your password and sign in</a></p>`,
    `<p>The link works once, until ${escapeHtml(until)}. If it has expired, ask for a password reset on the sign-in page.</p>`,
  ].join('\n');
  return { kind: 'invitation', to: invitation.to, subject: 'Your Opsdeck account', text: lines.join('\n'), html };
}
