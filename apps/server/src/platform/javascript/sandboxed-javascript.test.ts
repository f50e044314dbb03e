import { beforeAll, describe, expect, it } from 'vitest';
import { JavaScriptError, loadJavaScriptEngine, runSandboxedJavaScript } from './sandboxed-javascript';
import { usesUnderscore } from './underscore-prelude';

describe('sandboxed JavaScript', () => {
  beforeAll(() => loadJavaScriptEngine());

  it('hands globals in, runs Underscore-style helpers, and returns the last statement as text or data', () => {
    const results = [
      { name: 'a', labels: { severity: 'critical' } },
      { name: 'b', labels: { severity: 'warning' } },
    ];
    const text = runSandboxedJavaScript('JSON.stringify(_.map(results, function (r) { return { name: r.name, sev: r.labels.severity }; }))', { results }, { timeoutMs: 1000 });
    expect(JSON.parse(String(text))).toEqual([
      { name: 'a', sev: 'critical' },
      { name: 'b', sev: 'warning' },
    ]);
    expect(runSandboxedJavaScript('_.pluck(_.filter(results, {name: "b"}), "name")', { results }, { timeoutMs: 1000 })).toEqual(['b']);
    expect(runSandboxedJavaScript('_.countBy(results, function (r) { return r.labels.severity; })', { results }, { timeoutMs: 1000 })).toEqual({ critical: 1, warning: 1 });
    expect(runSandboxedJavaScript('code === 200 && json.ok', { code: 200, json: { ok: true } }, { timeoutMs: 1000 })).toBe(true);
    expect(runSandboxedJavaScript('undefined', {}, { timeoutMs: 1000 })).toBeNull();
  });

  it('gives a script no way to reach the host: no require, process, fetch, file system or timers', () => {
    const reach = runSandboxedJavaScript(
      '[typeof require, typeof process, typeof fetch, typeof std, typeof os, typeof setTimeout, typeof XMLHttpRequest, typeof WebAssembly].join(",")',
      {},
      { timeoutMs: 1000 },
    );
    expect(reach).toBe('undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined');
    expect(() => runSandboxedJavaScript('this.constructor.constructor("return process")().env', {}, { timeoutMs: 1000 })).toThrow(JavaScriptError);
  });

  it('stops a script that loops past its deadline, eats memory or recurses without end, and keeps working after', () => {
    expect(() => runSandboxedJavaScript('while (true) {}', {}, { timeoutMs: 50 })).toThrow('the script ran past its time limit');
    expect(() => runSandboxedJavaScript('var a = []; var s = "x".repeat(1 << 20); while (true) a.push(s + a.length);', {}, { timeoutMs: 10_000 })).toThrow(/out of memory/);
    expect(() => runSandboxedJavaScript('function f() { return f(); } f()', {}, { timeoutMs: 10_000 })).toThrow(/stack overflow/);
    expect(() => runSandboxedJavaScript('JSON.parse("[".repeat(100000))', {}, { timeoutMs: 10_000 })).toThrow(/stack overflow/);
    expect(() => runSandboxedJavaScript('throw new Error("bad input")', {}, { timeoutMs: 1000 })).toThrow('Error: bad input');
    expect(() => runSandboxedJavaScript('results.nope.deeper', { results: {} }, { timeoutMs: 1000 })).toThrow(/TypeError/);
    expect(runSandboxedJavaScript('1 + 1', {}, { timeoutMs: 1000 })).toBe(2);
  });

  it('refuses an answer longer than a million characters', () => {
    expect(() => runSandboxedJavaScript('"x".repeat(1000001)', {}, { timeoutMs: 5000 })).toThrow('the script returned more than 1000000 characters');
  });

  it('defines _ only for scripts that use it, and a script without it has no _', () => {
    expect(['_.map(a, f)', 'x = _.size(y)', '(_.keys(o))', 'return _(list)'].every(usesUnderscore)).toBe(true);
    expect(['a_b.c', 'x._y', 'snake_case.length', '"_"'].some(usesUnderscore)).toBe(false);
    expect(runSandboxedJavaScript('typeof _', {}, { timeoutMs: 1000 })).toBe('undefined');
    expect(runSandboxedJavaScript('_.size([1, 2])', {}, { timeoutMs: 1000 })).toBe(2);
  });
});
