import { describe, expect, it } from 'vitest';
import { resourceFor, writeGuards } from './resource-map';

function resources(...args: Parameters<typeof writeGuards>): Array<string | null> {
  return writeGuards(...args).map((guard) => `${guard.table}:${guard.resource ?? 'nobody'}`);
}

describe('writeGuards', () => {
  it('asks identities write for creating, deleting or disabling a person, database write for their profile', () => {
    expect(resources('people', 'update', ['name', 'avatar', 'team_id', 'updated_at'], [])).toEqual(['people:database']);
    expect(resources('people', 'update', ['deleted_at'], [])).toEqual(['people:database', 'people:identities']);
    expect(resources('people', 'update', ['name', 'email'], [])).toEqual(['people:database', 'people:identities']);
    expect(resources('people', 'insert', [], [])).toEqual(['people:database', 'people:identities']);
    expect(resources('people', 'delete', [], [])).toEqual(['people:database', 'people:identities']);
  });

  it('asks rbac for team membership, which makes people approvers, and database for the teams themselves', () => {
    for (const action of ['insert', 'update', 'delete'] as const) {
      expect(resources('team_members', action, ['team_id', 'person_id'], [])).toEqual(['team_members:database', 'team_members:rbac']);
    }
    expect(resources('members_view', 'insert', ['person_id'], ['team_members'])).toEqual(['members_view:database', 'team_members:database', 'team_members:rbac']);
    expect(resources('teams', 'update', ['name'], [])).toEqual(['teams:database']);
  });

  it('asks rbac for roles and identities for identities, whatever the columns', () => {
    expect(resources('person_roles', 'insert', [], [])).toEqual(['person_roles:rbac']);
    expect(resources('identities', 'update', ['traits'], [])).toEqual(['identities:identities']);
  });

  it('asks a write through a view for write on every table beneath it, people as if every column changed', () => {
    expect(resources('people_directory', 'update', ['name'], ['people'])).toEqual(['people_directory:database', 'people:database', 'people:identities']);
    expect(resources('roles_view', 'delete', [], ['people', 'person_roles'])).toEqual([
      'roles_view:database',
      'people:database',
      'people:identities',
      'person_roles:rbac',
    ]);
    expect(resources('directory_view', 'update', ['x'], ['identity_credentials'])).toEqual(['directory_view:database', 'identity_credentials:nobody']);
  });

  it('asks nothing more of other tables', () => {
    expect(resources('incidents', 'update', ['deleted_at'], [])).toEqual(['incidents:incident']);
  });
});

describe('resourceFor, for the views of the users and settings pages', () => {
  it('guards the Users list with identities, never with database, which every role reads', () => {
    expect(resourceFor('identities_summary')).toBe('identities');
  });

  it('guards the teams and incident rules status views as their tables', () => {
    expect(resourceFor('teams_with_status')).toBe(resourceFor('teams'));
    expect(resourceFor('incident_rules_with_status')).toBe('incident');
    expect(resourceFor('team_members')).toBe('database');
  });
});
