import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:18099';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const width of [390, 1024, 1440]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/login`);
  await page.getByLabel('E-Mail', { exact: true }).fill('admin@opsdeck.local');
  await page.getByLabel('Password', { exact: true }).fill('opsdeck-demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.goto(`${base}/settings/canaries`);
  await page.getByRole('button', { name: 'Add Health Check' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Health Check' });
  await dialog.getByRole('combobox', { name: 'Check Type' }).click();
  await page.getByRole('option', { name: 'Kubernetes', exact: true }).click();
  await dialog.getByRole('textbox', { name: /^Name/ }).first().fill('ready-pods');
  await dialog.getByRole('textbox', { name: /^Kind/ }).fill('Pod');
  await dialog.getByRole('textbox', { name: /^Namespaces/ }).fill('shop, !kube-*');
  await page.screenshot({ path: `/tmp/shots/kube-form-${width}.png`, fullPage: false });
  await dialog.getByRole('radio', { name: 'YAML' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/kube-yaml-${width}.png`, fullPage: false });
  console.log(width, 'errors', errors);
  await page.close();
}
await browser.close();
