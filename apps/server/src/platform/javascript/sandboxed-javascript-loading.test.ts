import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./sandboxed-javascript.ts', import.meta.url));

/** In a process of its own: the unit suites share their modules, and one of them loads the engine first. */
const SCRIPT = `
const { prepareJavaScriptFor, runSandboxedJavaScript } = await import(${JSON.stringify(MODULE)});
const attempt = () => { try { return String(runSandboxedJavaScript('1 + 1', {}, { timeoutMs: 1000 })); } catch (error) { return error.message; } };
const steps = [];
await prepareJavaScriptFor({ test: { expr: 'code == 200' }, display: { template: '{{ .code }}' } });
steps.push(attempt());
await prepareJavaScriptFor({ http: [{ name: 'a', transform: { javascript: 'results' } }] });
steps.push(attempt());
console.log(JSON.stringify(steps));
`;

describe('the JavaScript engine, loaded at its first need', () => {
  // A child process that compiles TypeScript as it starts: seconds on a loaded machine, so more than the default 5 s.
  it('is not loaded for a spec without a javascript field, and is before one that has it anywhere is evaluated', { timeout: 60_000 }, () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { encoding: 'utf8' });
    const [withoutJavaScript, withJavaScript] = JSON.parse(output.trim().split('\n').at(-1) ?? '[]') as string[];
    expect(withoutJavaScript).toMatch(/JavaScript engine is loading/);
    expect(withJavaScript).toBe('2');
  });
});
