import { PLAYBOOK_ACTION_TYPES } from '@opsdeck/shared';
import { describe, expect, it } from 'vitest';
import { ACTION_RUNNERS, actionType } from './index';

describe('action runners', () => {
  it('has a runner for every action type', () => {
    expect(Object.keys(ACTION_RUNNERS).sort()).toEqual([...PLAYBOOK_ACTION_TYPES].sort());
  });

  it('tells the type of an action from the one block it holds', () => {
    expect(actionType({ name: 'a', exec: { script: 'true' } })).toBe('exec');
    expect(actionType({ name: 'b', http: { url: 'http://x' } })).toBe('http');
    expect(actionType({ name: 'c', sql: { connection: 'db', query: 'select 1' } })).toBe('sql');
    expect(actionType({ name: 'd', notification: { connection: 'slack', title: 't', message: 'm' } })).toBe('notification');
  });

  it('throws for an action with no type block or several, which the spec parser never lets through', () => {
    expect(() => actionType({ name: 'none' })).toThrow("Action 'none' must hold exactly one of exec, http, sql, notification");
    expect(() => actionType({ name: 'two', exec: { script: 'true' }, http: { url: 'http://x' } })).toThrow(/exactly one/);
  });
});
