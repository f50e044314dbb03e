import { describe, expect, it } from 'vitest';
import { renderConnectionCompatibility, renderNotificationCompatibility } from './compatibility-section';

describe('the Notification and Connection sections of the compatibility page', () => {
  it('lists each Notification field apply runs and each it refuses, with the code a refusal carries', () => {
    const page = renderNotificationCompatibility();
    expect(page).toMatch(/\| `spec\.filter` \| runs \| CEL/);
    expect(page).toMatch(/\| `spec\.repeatInterval` \| runs \| Stored as properties\.repeatInterval/);
    expect(page).toMatch(/\| `spec\.inhibitions` \| runs \| Stored as properties\.inhibitions/);
    expect(page).toMatch(/\| `spec\.groupBy` \| runs \| Stored as properties\.groupBy/);
    expect(page).toMatch(/\| `spec\.to\.playbook` \| runs \| A playbook here/);
    expect(page).toMatch(/\| `spec\.to\.url` \| \*\*refused\*\*/);
  });

  it('says which connection type each of Mission Control blocks becomes and where each field goes', () => {
    const page = renderConnectionCompatibility();
    expect(page).toContain('| `spec.slack` | runs | Type `slack`: `token` → password, `channel` → properties.channel');
    expect(page).toMatch(/\| `spec\.awskms` \| \*\*refused\*\* \(`OD_CONNECTION_FIELD_NOT_RUN`\) \|/);
    expect(page).toContain('`…valueFrom`');
  });
});
