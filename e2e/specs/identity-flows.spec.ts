import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { codeIn, mailCount, waitForMail } from '../support/mailbox';
import { RUN_ID, storageStateFor } from '../support/roles';

/**
 * The self-service identity flows of spec 002 §2.3 end to end, as one person's story: they register, verify their
 * address, add an authenticator app, keep backup codes, and recover a forgotten password. The steps build on each
 * other, so they run in order and a failure skips the rest.
 */

/** Opens self-service registration on a server that already has people (registration-setting.ts). */
const REGISTRATION_PROPERTY = 'identity.registration.enabled';
const TOTP_PERIOD_S = 30;

const unique = `${RUN_ID}-${Date.now()}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
const person = {
  email: `e2e-identity-${unique}@example.com`,
  first: 'E2E',
  last: `Identity ${unique}`,
  password: `first passphrase for ${unique.split('').reverse().join('')}`,
  newPassword: `second passphrase, chosen after recovery ${unique.length}`,
};

/** What the steps learn and pass on: the authenticator key, the last code step spent, the backup codes. */
const state: { totpSecret: string | null; lastTotpStep: number; backupCodes: string[] } = { totpSecret: null, lastTotpStep: -1, backupCodes: [] };

function adminApi(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStateFor('admin'),
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
  });
}

async function deleteRegistrationProperty(api: APIRequestContext): Promise<void> {
  const response = await api.delete(`/api/db/properties?name=eq.${encodeURIComponent(REGISTRATION_PROPERTY)}`);
  expect(response.ok(), `DELETE ${REGISTRATION_PROPERTY}: ${response.status()} ${await response.text()}`).toBe(true);
}

/**
 * A code of the authenticator app that the server has not seen yet: it refuses a step it already accepted, and takes
 * one step either side of now. Waits for the clock when the next unused step is still ahead.
 */
async function freshTotpCode(): Promise<string> {
  const secret = state.totpSecret;
  if (secret === null) throw new Error('no authenticator key was set up');
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S });
  const step = Math.max(totp.counter(), state.lastTotpStep + 1);
  const waitMs = (step - 1) * TOTP_PERIOD_S * 1000 - Date.now();
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 500));
  state.lastTotpStep = step;
  return totp.generate({ timestamp: step * TOTP_PERIOD_S * 1000 });
}

function card(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title });
}

async function openProfileSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Your Profile' }).click();
  await expect(page).toHaveURL(/\/profile-settings/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile Management and Security Settings' })).toBeVisible();
  await expect(page).toHaveTitle('Profile Management and Security Settings | Opsdeck');
}

async function signOut(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign In to your account' })).toBeVisible();
}

async function submitPassword(page: Page, password: string): Promise<void> {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign In to your account' })).toBeVisible();
  await page.getByLabel('E-Mail').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function expectSignedIn(page: Page): Promise<void> {
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
}

/** The second step of a sign-in, with a fresh code of the authenticator app. */
async function passSecondFactorWithApp(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(await freshTotpCode());
  await page.getByRole('button', { name: 'Use authenticator app' }).click();
}

test.describe('self-service identity flows', () => {
  // Each step may wait for the authenticator's next 30-second code, as the server never takes a code twice.
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let admin: APIRequestContext;

  test.beforeAll(async () => {
    admin = await adminApi();
    // A run that failed before its clean-up may have left the property; start from a known value.
    await deleteRegistrationProperty(admin);
    const created = await admin.post('/api/db/properties', { data: { name: REGISTRATION_PROPERTY, value: 'true', source: 'UI' } });
    expect(created.ok(), `POST ${REGISTRATION_PROPERTY}: ${created.status()} ${await created.text()}`).toBe(true);
  });

  test.afterAll(async () => {
    await deleteRegistrationProperty(admin);
    await admin.dispose();
  });

  test('a visitor registers from the sign-in page and verifies the address with the emailed code', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/registration/);
    await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
    await expect(page).toHaveTitle('Register | Opsdeck');

    const since = mailCount();
    await page.getByLabel('E-Mail').fill(person.email);
    await page.getByLabel('First Name').fill(person.first);
    await page.getByLabel('Last Name').fill(person.last);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expectSignedIn(page);

    // Registration mails a code for a verification flow bound to this browser; the page continues that flow.
    const mail = await waitForMail(person.email, since);
    const flowId = /[?&]flow=([0-9a-f-]{36})/.exec(mail.text)?.[1];
    expect(flowId, `a verification flow id in: ${mail.text}`).toBeDefined();
    await page.goto(`/verification?flow=${flowId ?? ''}`);
    await expect(page.getByRole('heading', { name: 'Verify your account' })).toBeVisible();
    await page.getByLabel('Verification code').fill(codeIn(mail));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Your email address is verified.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });

  test('the new person links an authenticator app and then signs in with a code from it', async ({ page }) => {
    await submitPassword(page, person.password);
    await expectSignedIn(page);
    await openProfileSettings(page);

    const totpCard = card(page, 'Manage 2FA TOTP Authenticator App');
    await expect(totpCard.getByRole('img', { name: /QR code/ })).toBeVisible();
    await expect(totpCard.getByRole('link', { name: 'Google Authenticator' })).toBeVisible();
    state.totpSecret = ((await totpCard.locator('code').textContent()) ?? '').trim();
    expect(state.totpSecret).toMatch(/^[A-Z2-7]+=*$/);
    await totpCard.getByLabel('Verify code').fill(await freshTotpCode());
    await totpCard.getByRole('button', { name: 'Save' }).click();
    await expect(totpCard.getByText('Your changes were saved.')).toBeVisible();
    await expect(totpCard.getByRole('button', { name: 'Unlink TOTP Authenticator App' })).toBeVisible();

    await signOut(page);
    await submitPassword(page, person.password);
    await passSecondFactorWithApp(page);
    await expectSignedIn(page);
  });

  test('backup recovery codes are kept and one of them signs the person in instead of the app', async ({ page }) => {
    await submitPassword(page, person.password);
    await passSecondFactorWithApp(page);
    await expectSignedIn(page);
    await openProfileSettings(page);

    const codesCard = card(page, 'Manage 2FA Backup Recovery Codes');
    await expect(codesCard.getByText(/emergencies/)).toBeVisible();
    await codesCard.getByRole('button', { name: 'Generate new backup recovery codes' }).click();
    const grid = codesCard.getByRole('list', { name: 'Backup recovery codes' });
    await expect(grid.getByRole('listitem').first()).toBeVisible();
    state.backupCodes = (await grid.getByRole('listitem').allTextContents()).map((code) => code.trim());
    expect(state.backupCodes.length).toBeGreaterThan(1);
    await codesCard.getByRole('button', { name: 'Confirm backup recovery codes' }).click();
    await expect(codesCard.getByText('Your changes were saved.')).toBeVisible();

    await signOut(page);
    await submitPassword(page, person.password);
    await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();
    const [firstCode] = state.backupCodes;
    await page.getByLabel('Backup recovery code').fill(firstCode ?? '');
    await page.getByRole('button', { name: 'Use backup recovery code' }).click();
    await expectSignedIn(page);

    // The spent code is listed as used from now on.
    await openProfileSettings(page);
    await card(page, 'Manage 2FA Backup Recovery Codes').getByRole('button', { name: 'Reveal backup recovery codes' }).click();
    await expect(card(page, 'Manage 2FA Backup Recovery Codes').getByRole('list', { name: 'Backup recovery codes' }).getByRole('listitem').first()).toHaveText('Used');
  });

  test('a forgotten password is recovered with the emailed code and a new one set', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Reset password' }).click();
    await expect(page.getByRole('heading', { name: 'Recover account' })).toBeVisible();
    await expect(page).toHaveTitle('Recovery | Opsdeck');

    const since = mailCount();
    await page.getByLabel('E-Mail').fill(person.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByLabel('Recovery code')).toBeVisible();
    const mail = await waitForMail(person.email, since);
    await page.getByLabel('Recovery code').fill(codeIn(mail));
    await page.getByRole('button', { name: 'Continue' }).click();

    // The recovered session may still owe the second factor before the settings page opens.
    const passwordCard = card(page, 'Change Password');
    const secondStep = page.getByRole('heading', { name: 'Two-Factor Authentication' });
    await expect(passwordCard.or(secondStep)).toBeVisible();
    if (await secondStep.isVisible()) await passSecondFactorWithApp(page);
    await expect(page).toHaveURL(/\/profile-settings/);
    await passwordCard.getByLabel('Password').fill(person.newPassword);
    await passwordCard.getByRole('button', { name: 'Save' }).click();
    await expect(passwordCard.getByText('Your changes were saved.')).toBeVisible();

    await signOut(page);
    await submitPassword(page, person.newPassword);
    await passSecondFactorWithApp(page);
    await expectSignedIn(page);
  });
});
