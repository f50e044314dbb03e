import { describe, expect, it } from 'vitest';
import { checkTypeOptionsFor, mayChooseCheckType } from './health-check-types';

const values = (roles: string[], current = 'http') => checkTypeOptionsFor(roles, current).map((option) => option.value);

describe('check types offered by role', () => {
  it('offers the exec type to admins only', () => {
    expect(values(['admin'])).toContain('exec');
    for (const role of ['editor', 'commander', 'responder', 'viewer']) expect(values([role])).not.toContain('exec');
    expect(values([])).not.toContain('exec');
  });

  it('keeps every other type for editors', () => {
    expect(values(['editor'])).toEqual(values(['admin']).filter((value) => value !== 'exec'));
  });

  it('shows the exec type of a check being edited as not selectable to a user without execute', () => {
    expect(checkTypeOptionsFor(['editor'], 'exec').find((option) => option.value === 'exec')).toEqual({ value: 'exec', label: 'Exec', disabled: true });
    expect(mayChooseCheckType(['editor'], 'exec')).toBe(false);
    expect(mayChooseCheckType(['editor'], 'http')).toBe(true);
  });
});
