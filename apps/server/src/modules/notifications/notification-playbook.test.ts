import { describe, expect, it } from 'vitest';
import type { Role } from '@opsdeck/shared';
import type { Principal } from '../../platform/principal';
import { checkPlaybookPermission } from './notification-playbook';

const PLAYBOOK = '0190c5a4-7d3e-7000-8000-000000000001';
const as = (role: Role): Principal => ({ personId: PLAYBOOK, sessionId: PLAYBOOK, name: role, email: null, roles: [role], via: 'session' });

describe('the permission a notification that runs a playbook needs', () => {
  it('refuses a writer who may not run playbooks, whether the playbook is the recipient or the fallback', () => {
    for (const row of [{ playbook_id: PLAYBOOK }, { custom_services: [{ connection: 'connection://mc/slack' }], properties: { fallback: { playbook_id: PLAYBOOK } } }]) {
      expect(() => checkPlaybookPermission([row], 'POST', as('responder'))).toThrow(expect.objectContaining({ statusCode: 403, code: 'OD_NOTIFICATION_PLAYBOOK_FORBIDDEN' }));
      expect(() => checkPlaybookPermission([row], 'PATCH', null)).toThrow(expect.objectContaining({ code: 'OD_NOTIFICATION_PLAYBOOK_FORBIDDEN' }));
    }
  });

  it('lets a writer who may run playbooks name one, and asks nothing of a notification that runs none', () => {
    expect(() => checkPlaybookPermission([{ playbook_id: PLAYBOOK }], 'POST', as('editor'))).not.toThrow();
    expect(() => checkPlaybookPermission([{ person_id: PLAYBOOK, playbook_id: null }], 'POST', as('responder'))).not.toThrow();
  });
});
