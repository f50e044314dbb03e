import { describe, expect, it } from 'vitest';
import { checkTemplate, renderTemplate } from './notification-templates';

describe('notification templates', () => {
  it("renders Mission Control's $( ) actions beside {{ }} in a Go-template notification, and leaves them to Liquid's text", async () => {
    const scope = { check: { name: 'api', status: 'unhealthy' }, url: 'https://ops.example/c/1' };
    expect(await renderTemplate('$(.check.name) is {{.check.status}}: $(.permalink)', scope, 'gotemplate')).toBe('api is unhealthy: https://ops.example/c/1');
    expect(await renderTemplate('$(.check.name) is {{ check.status }}', scope, 'liquid')).toBe('$(.check.name) is unhealthy');
  });

  it('refuses at save a $( ) action that calls a function this server does not have', () => {
    expect(checkTemplate('$(nope .check.name)', 'gotemplate')).toMatch(/function "nope" not defined/);
    expect(checkTemplate('$(.check.name)', 'gotemplate')).toBeNull();
  });
});
