import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import type { Principal } from '../../platform/principal';
import { canarySpecRunsExec, canaryRowsValidator, checkRowRunsExec, checkRowsValidator, isExecCheckType } from './exec-permission';

const principal = (role: Principal['roles'][number]): Principal => ({ personId: 'p', sessionId: 's', name: role, email: null, roles: [role], via: 'session' });

describe('recognising exec checks', () => {
  it('finds exec checks in a bare spec or a kind: Canary resource, valid or not', () => {
    expect(canarySpecRunsExec({ exec: [{ name: 'x', script: 'id' }] })).toBe(true);
    expect(canarySpecRunsExec({ exec: 'not even a list' })).toBe(true);
    expect(canarySpecRunsExec({ kind: 'Canary', spec: { exec: [] } })).toBe(true);
    expect(canarySpecRunsExec({ http: [{ name: 'x', url: 'http://a' }], labels: { exec: 'yes' } })).toBe(false);
    expect(canarySpecRunsExec('exec')).toBe(false);
    expect(canarySpecRunsExec(null)).toBe(false);
  });

  it('treats the check type case- and space-insensitively', () => {
    expect(isExecCheckType('exec')).toBe(true);
    expect(isExecCheckType(' EXEC ')).toBe(true);
    expect(isExecCheckType('http')).toBe(false);
    expect(isExecCheckType(undefined)).toBe(false);
  });
});

describe('the data API validators', () => {
  it('refuse exec rows from anyone without execute with the coded 403', () => {
    for (const role of ['editor', 'commander', 'responder', 'viewer'] as const) {
      const refusal = (() => {
        try {
          checkRowsValidator([{ type: 'exec', spec: { script: 'id' } }], 'POST', principal(role));
        } catch (error) {
          return error;
        }
        return null;
      })();
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ statusCode: 403, code: 'OD_EXEC_FORBIDDEN', message: 'Exec checks need the execute permission' });
    }
    expect(() => canaryRowsValidator([{ spec: { exec: [] } }], 'PATCH', principal('editor'))).toThrow(AppError);
    expect(() => canaryRowsValidator([{ spec: { exec: [] } }], 'PATCH', null)).toThrow(AppError);
  });

  it('refuse a junit report row that lists exec checks, whatever its type says, from anyone without execute', () => {
    const report = { type: 'junit', spec: { resultMode: 'junit', exec: [{ name: 'x', script: 'id' }] } };
    expect(checkRowRunsExec(report)).toBe(true);
    expect(checkRowRunsExec({ ...report, type: 'http' })).toBe(true);
    expect(() => checkRowsValidator([report], 'PATCH', principal('editor'))).toThrow(AppError);
    expect(() => checkRowsValidator([report], 'PATCH', principal('admin'))).not.toThrow();
    expect(checkRowRunsExec({ type: 'junit', spec: { resultMode: 'junit', http: [{ name: 'x', url: 'http://a' }] } })).toBe(false);
  });

  it('let admins write exec rows and anyone allowed write other rows', () => {
    expect(() => checkRowsValidator([{ type: 'exec' }], 'POST', principal('admin'))).not.toThrow();
    expect(() => canaryRowsValidator([{ spec: { exec: [] } }], 'POST', principal('admin'))).not.toThrow();
    expect(() => checkRowsValidator([{ type: 'http' }, { name: 'no type' }], 'PATCH', principal('editor'))).not.toThrow();
    expect(() => canaryRowsValidator([{ name: 'renamed' }], 'PATCH', principal('editor'))).not.toThrow();
  });
});
