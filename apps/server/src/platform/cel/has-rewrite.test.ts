import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from './cel-environment';
import { toCel, fromCel } from './cel-values';
import { widenHas } from './has-rewrite';

describe('widenHas', () => {
  it('rewrites has() over an index or a call into an optional field test, and leaves chains of names alone', () => {
    expect(widenHas('has(patch.status.containerStatuses[0].restartCount)')).toBe('(patch.status.containerStatuses[0]).?restartCount.hasValue()');
    expect(widenHas('has(a.b.c) && has(a.?b.c)')).toBe('has(a.b.c) && has(a.?b.c)');
    expect(widenHas("has(f(x, ')').y)")).toBe("(f(x, ')')).?y.hasValue()");
    expect(widenHas('has(m["k"].v)')).toBe('(m["k"]).?v.hasValue()');
  });

  it('leaves has() inside quoted text, a method named has, and arguments that are no field selection', () => {
    expect(widenHas('"has(a[0].b)" == x')).toBe('"has(a[0].b)" == x');
    expect(widenHas('s.has(a[0].b)')).toBe('s.has(a[0].b)');
    expect(widenHas('has(a + b[0].c)')).toBe('has(a + b[0].c)');
    expect(widenHas('has(a[0])')).toBe('has(a[0])');
  });

  it('rewrites has() nested in the operand of another', () => {
    expect(widenHas('has(l.filter(x, has(x[0].y))[0].z)')).toBe('(l.filter(x, (x[0]).?y.hasValue())[0]).?z.hasValue()');
  });
});

describe('has() over any field selection in the server CEL', () => {
  const env = createCelEnvironment().registerVariable('patch', 'dyn');
  const run = (expression: string, patch: unknown): unknown => fromCel(env.evaluate(expression, { patch: toCel(patch) }));

  it("answers as cel-go: true for a present field, false for a missing one, an error when the operand can't be read", () => {
    const expression = 'has(patch.status.containerStatuses[0].restartCount)';
    expect(env.check(expression).valid).toBe(true);
    expect(run(expression, { status: { containerStatuses: [{ restartCount: 1 }] } })).toBe(true);
    expect(run(expression, { status: { containerStatuses: [{ name: 'app' }] } })).toBe(false);
    expect(() => run(expression, { status: {} })).toThrow(/containerStatuses/);
  });
});
