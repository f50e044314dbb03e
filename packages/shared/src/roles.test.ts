import { describe, expect, it } from 'vitest';
import { can, effectiveRoles, highestRole, isAdmin, isViewerOnly, RESOURCES, ROLES, type Action, type Resource, type Role } from './roles';

// Spec 000 §6, written out resource by resource rather than derived, so a change to can() cannot agree with itself.
// The audit trail (#19) is the one resource beyond the spec's twenty: admins alone read it.
const ALL = new Set<Resource>(RESOURCES);
const ALL_BUT_AUDIT = new Set<Resource>(RESOURCES.filter((resource) => resource !== 'audit'));
const NOT_RESTRICTED = new Set<Resource>(RESOURCES.filter((resource) => !['rbac', 'identities', 'connections', 'audit'].includes(resource)));
const INCIDENT_WORK = new Set<Resource>(['responder', 'incident', 'evidences', 'comments']);

const TABLE: Record<Role, Record<Action, ReadonlySet<Resource>>> = {
  admin: { read: ALL, write: ALL, execute: ALL },
  editor: { read: ALL_BUT_AUDIT, write: NOT_RESTRICTED, execute: new Set() },
  commander: { read: NOT_RESTRICTED, write: INCIDENT_WORK, execute: new Set() },
  responder: { read: NOT_RESTRICTED, write: INCIDENT_WORK, execute: new Set() },
  viewer: { read: NOT_RESTRICTED, write: new Set(), execute: new Set() },
};

describe('the role table of spec 000 §6', () => {
  it('lists the twenty resources of the spec and the audit trail', () => {
    expect([...RESOURCES].filter((resource) => resource !== 'audit').sort()).toEqual(
      [
        'database', 'rbac', 'auth', 'responder', 'incident', 'evidences', 'comments', 'canaries', 'topologies', 'config_scrapers',
        'identities', 'connections', 'kratos', 'agents', 'feature_flags', 'logging_backends', 'integrations', 'notifications',
        'playbooks', 'playbook_runs',
      ].sort(),
    );
    expect(NOT_RESTRICTED.size).toBe(17);
  });

  for (const role of ROLES) {
    for (const action of ['read', 'write', 'execute'] as const) {
      it(`gives ${role} ${action} access to exactly the resources the spec lists`, () => {
        const granted = RESOURCES.filter((resource) => can([role], resource, action));
        expect(granted).toEqual(RESOURCES.filter((resource) => TABLE[role][action].has(resource)));
      });
    }
  }

  it('treats a user with no roles, or only unknown ones, as a viewer', () => {
    expect(effectiveRoles([])).toEqual(['viewer']);
    expect(effectiveRoles(['owner'])).toEqual(['viewer']);
    for (const resource of RESOURCES) {
      for (const action of ['read', 'write', 'execute'] as const) {
        expect(can([], resource, action)).toBe(can(['viewer'], resource, action));
      }
    }
  });

  it('grants the union of what several roles allow', () => {
    expect(can(['viewer', 'responder'], 'incident', 'write')).toBe(true);
    expect(can(['commander', 'editor'], 'canaries', 'write')).toBe(true);
    expect(can(['commander', 'editor'], 'rbac', 'write')).toBe(false);
    expect(can(['editor', 'unknown'], 'playbooks', 'write')).toBe(true);
  });

  it('gives the execute permission to admins alone, even combined with every other role', () => {
    expect(can(['admin'], 'canaries', 'execute')).toBe(true);
    expect(can(['editor', 'commander', 'responder', 'viewer'], 'canaries', 'execute')).toBe(false);
    expect(can(['editor', 'admin'], 'playbooks', 'execute')).toBe(true);
  });

  it('ranks roles so that a token can be capped at its owner\'s highest role', () => {
    expect(highestRole(['viewer', 'editor', 'responder'])).toBe('editor');
    expect(highestRole(['commander', 'admin'])).toBe('admin');
    expect(highestRole(['owner'])).toBe('viewer');
  });

  it('exposes the admin and viewer-only flags', () => {
    expect(isAdmin(['editor', 'admin'])).toBe(true);
    expect(isAdmin([])).toBe(false);
    expect(isViewerOnly([])).toBe(true);
    expect(isViewerOnly(['viewer', 'responder'])).toBe(false);
  });
});
