import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, demoEmail, type Role } from '../support/roles';

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/login${query}`);
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: 'Sign In to your account' })).toBeVisible();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.getByLabel('E-Mail').fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async signInAs(role: Role): Promise<void> {
    await this.signIn(demoEmail(role), DEMO_PASSWORD);
  }

  /** Waits until the sign-in has taken the browser away from /login. */
  async expectSignedIn(): Promise<void> {
    await expect(this.page).not.toHaveURL(/\/login(\?|$)/);
  }
}
