import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { createLoginThrottle } from '../shared/login-throttle';
import { secondFactorNodes } from './login-nodes';
import { consumeLookupCode, hasUnusedLookupCode } from '../factors/lookup-secrets';
import type { FlowContext } from '../factors/second-factor-store';
import { factorTexts } from '../factors/second-factor-texts';
import type { SecondFactorMethod } from '../sessions/sessions';
import { acceptTotpCode, hasTotp } from '../factors/totp';
import { uiMessages, type UiNode, type UiText } from '../shared/ui-nodes';
import { authenticationOptions, listWebauthnCredentials, verifyWebauthnAssertion, type RelyingParty } from '../factors/webauthn';

/**
 * The aal2 step of signing in. TOTP and WebAuthn make a second factor mandatory (sessions.ts `needs_second_factor`);
 * backup recovery codes are offered alongside them, and alone they let a person raise a session to aal2 voluntarily.
 */
export async function secondFactorLoginForm(
  pool: pg.Pool,
  rp: RelyingParty,
  identityId: string,
): Promise<{ nodes: UiNode[]; context: FlowContext } | null> {
  const [totp, lookupSecret, keys] = await Promise.all([
    hasTotp(pool, identityId),
    hasUnusedLookupCode(pool, identityId),
    listWebauthnCredentials(pool, identityId),
  ]);
  if (!totp && !lookupSecret && keys.length === 0) return null;
  const webauthnOptions = keys.length === 0 ? null : await authenticationOptions(rp, keys);
  return {
    nodes: secondFactorNodes({ totp, lookupSecret, webauthnOptions }),
    context: webauthnOptions === null ? {} : { webauthn_challenge: webauthnOptions.challenge },
  };
}

export interface SecondFactorSubmission {
  identityId: string;
  method: string | undefined;
  totpCode: string | undefined;
  lookupSecret: string | undefined;
  webauthnLogin: string | undefined;
  context: FlowContext;
  rp: RelyingParty;
  address: string;
  /** The flow's nodes, which tell what this identity was offered. */
  offered: readonly UiNode[];
}

export type SecondFactorCheck =
  | { outcome: 'ok'; method: SecondFactorMethod }
  | { outcome: 'rejected'; messages: UiText[]; fieldMessages: Record<string, UiText[]> }
  | { outcome: 'rate_limited'; retryAfterSeconds: number };

function offers(nodes: readonly UiNode[], method: SecondFactorMethod): boolean {
  return nodes.some((node) => node.group === method);
}

function blank(value: string | undefined): value is undefined {
  return value === undefined || value.trim() === '';
}

/**
 * Checks a submitted second factor. Wrong codes and failed assertions count as failed sign-ins in the login throttle
 * (per identity and client address, and per address), so guessing codes meets the same 429 as guessing passwords.
 */
export interface SecondFactorChecker {
  check(submission: SecondFactorSubmission): Promise<SecondFactorCheck>;
}

export function createSecondFactorCheck(pool: pg.Pool, secretKey: Buffer): SecondFactorChecker {
  const throttle = createLoginThrottle(pool, secretKey);
  const throttleKey = (identityId: string): string => `second-factor:${identityId}`;

  return {
    async check(submission) {
      const method = submission.method;
      if (method !== 'totp' && method !== 'lookup_secret' && method !== 'webauthn') {
        return { outcome: 'rejected', messages: [factorTexts.methodNotSetUp()], fieldMessages: {} };
      }
      if (!offers(submission.offered, method)) return { outcome: 'rejected', messages: [factorTexts.methodNotSetUp()], fieldMessages: {} };
      const missing = (field: string): SecondFactorCheck => ({
        outcome: 'rejected',
        messages: [],
        fieldMessages: { [field]: [uiMessages.missingProperty(field)] },
      });
      if (method === 'totp' && blank(submission.totpCode)) return missing('totp_code');
      if (method === 'lookup_secret' && blank(submission.lookupSecret)) return missing('lookup_secret');
      if (method === 'webauthn' && blank(submission.webauthnLogin)) return { outcome: 'rejected', messages: [factorTexts.securityKeyFailed()], fieldMessages: {} };

      const key = throttleKey(submission.identityId);
      const verdict = await throttle.assess(key, submission.address);
      if (verdict.outcome === 'refused') return { outcome: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds };
      if (verdict.delayMs > 0) await sleep(verdict.delayMs);

      let passed = false;
      let rejection: SecondFactorCheck = { outcome: 'rejected', messages: [factorTexts.securityKeyFailed()], fieldMessages: {} };
      if (method === 'totp') {
        passed = await acceptTotpCode(pool, secretKey, submission.identityId, submission.totpCode ?? '');
        rejection = { outcome: 'rejected', messages: [], fieldMessages: { totp_code: [factorTexts.wrongTotpCode()] } };
      } else if (method === 'lookup_secret') {
        passed = await consumeLookupCode(pool, secretKey, submission.identityId, submission.lookupSecret ?? '');
        rejection = { outcome: 'rejected', messages: [], fieldMessages: { lookup_secret: [factorTexts.wrongLookupCode()] } };
      } else {
        const challenge = submission.context.webauthn_challenge;
        passed =
          challenge !== undefined &&
          (await verifyWebauthnAssertion(pool, submission.rp, submission.identityId, challenge, submission.webauthnLogin ?? ''));
      }
      if (!passed) {
        await throttle.recordFailure(key, submission.address);
        return rejection;
      }
      await throttle.recordSuccess(key, submission.address);
      return { outcome: 'ok', method };
    },
  };
}
