import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from './common-passwords';
import { PASSWORD_MAX_LENGTH, passwordPolicyProblems } from './password-policy';

const EMAIL = 'jane.doe@example.com';

function ids(password: string, identifiers: readonly string[] = [EMAIL]): number[] {
  return passwordPolicyProblems(password, identifiers).map((message) => message.id);
}

describe('passwordPolicyProblems', () => {
  it('accepts a long, uncommon password unrelated to the address', () => {
    expect(passwordPolicyProblems('lantern-quartz-meadow-41', [EMAIL])).toEqual([]);
  });

  it('refuses fewer than 8 characters, counting an emoji as one, and says how many there were', () => {
    const [problem] = passwordPolicyProblems('k7#Rq2', [EMAIL]);
    expect(problem).toMatchObject({ id: 4000032, type: 'error', context: { min_length: 8, actual_length: 6 } });
    expect(ids('🔑🔑🔑🔑🔑🔑🔑')).toContain(4000032);
    expect(ids('🔑🔑🔑🔑🔑🔑🔑🔑x')).toEqual([]);
  });

  it('refuses more than 1024 characters and accepts exactly 1024', () => {
    expect(ids('x7Q'.repeat(400))).toEqual([4000033]);
    expect(ids('x7Qv'.repeat(PASSWORD_MAX_LENGTH / 4))).toEqual([]);
  });

  it('refuses the address itself, in any case, and any password containing it', () => {
    expect(ids('Jane.Doe@Example.com')).toContain(4000031);
    expect(ids('my jane.doe@example.com password')).toContain(4000031);
  });

  it('refuses a password containing the local part of the address once that part has four characters', () => {
    expect(ids('JANE.DOE-forever-and-ever')).toContain(4000031);
    expect(ids('stormy-al-nights-91', ['al@example.com'])).toEqual([]);
    expect(ids('stormy-anna-nights-91', ['anna@example.com'])).toContain(4000031);
  });

  it('refuses a password the address itself contains, such as its domain or most of its name', () => {
    expect(ids('example.com')).toContain(4000031);
    expect(ids('jane.doe@exa')).toContain(4000031);
  });

  it('checks every identifier given, and ignores blank ones', () => {
    expect(ids('octopus-garden-quiet', ['x@example.com', 'octopus-garden'])).toContain(4000031);
    expect(ids('octopus-garden-quiet', ['', '   '])).toEqual([]);
  });

  it('refuses the common passwords of the bundled list, whatever their case', () => {
    expect(COMMON_PASSWORDS.length).toBeGreaterThan(300);
    for (const password of ['password', 'Password123', 'QWERTY123', 'iloveyou', '12345678', 'football', 'letmein1']) {
      expect(ids(password, []), password).toContain(4000034);
    }
  });

  it('refuses a common word merely wrapped in digits and symbols', () => {
    for (const password of ['Dragon2024!', '!!monkey!!', '2024sunshine', 'Password!!!!']) {
      expect(ids(password, []), password).toEqual([4000034]);
    }
  });

  it('keeps the list lower-case and free of duplicates, since lookups lower-case the password', () => {
    expect(COMMON_PASSWORDS.every((entry) => entry === entry.toLowerCase())).toBe(true);
    expect(new Set(COMMON_PASSWORDS).size).toBe(COMMON_PASSWORDS.length);
  });

  it('reports every problem at once, so the form shows them together', () => {
    expect(ids('jane', ['jane@example.com']).sort()).toEqual([4000031, 4000032]);
  });
});
