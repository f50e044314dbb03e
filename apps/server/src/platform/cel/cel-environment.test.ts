import { describe, expect, it } from 'vitest';
import { CelBudgetError, createCelEnvironment, describeCelError, runWithinBudget } from './cel-environment';

describe('the server CEL environment', () => {
  const environment = createCelEnvironment({ unlistedVariablesAreDyn: true });

  it('stops an expression that runs past its time budget', () => {
    const list = Array.from({ length: 3000 }, (_, i) => BigInt(i));
    const nested = environment.parse('l.map(a, l.map(b, l.map(c, a + b + c))).size()');
    const started = performance.now();
    expect(() => runWithinBudget(() => nested({ l: list }), 50)).toThrow(CelBudgetError);
    // The watchdog stops it near the budget, not when the billions of steps would have ended.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('returns what the work returns when it finishes within the budget, and passes its errors through', () => {
    expect(runWithinBudget(() => environment.evaluate('1 + 2'), 100)).toBe(3n);
    expect(() => runWithinBudget(() => environment.evaluate('x.y', { x: {} }), 100)).toThrow(/No such key: y/);
  });

  it('refuses an expression larger than its structural limits at parse time', () => {
    const huge = Array.from({ length: 1500 }, (_, i) => String(i)).join(' + ');
    expect(() => environment.parse(huge)).toThrow();
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    expect(() => environment.parse(deep)).toThrow();
    const wide = `[${Array.from({ length: 1200 }, () => '1').join(',')}]`;
    expect(() => environment.parse(wide)).toThrow();
  });

  it('describes an error by its first line, without the source excerpt', () => {
    let message = '';
    try {
      environment.evaluate('1 +');
    } catch (error) {
      message = describeCelError(error);
    }
    expect(message).toBe('Unexpected token: EOF');
  });

  it('reads only the variables it is given: no process, require or environment', () => {
    for (const name of ['process', 'require', 'globalThis', 'env']) {
      expect(() => environment.evaluate(`${name}.size()`, {})).toThrow(/Unknown variable/);
    }
    expect(() => environment.evaluate('results.constructor', { results: {} })).toThrow(/No such key/);
  });

  it('keeps a variable-declaring environment strict about undeclared names', () => {
    const strict = createCelEnvironment().registerVariable('check', 'map<string, dyn>');
    expect(strict.check('check.status == "healthy"').valid).toBe(true);
    expect(strict.check('other == 1').valid).toBe(false);
  });
});
