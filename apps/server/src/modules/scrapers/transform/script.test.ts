import { beforeAll, describe, expect, it } from 'vitest';
import { loadJavaScriptEngine } from '../../../platform/javascript/sandboxed-javascript';
import { ScriptError, scriptOutput } from './script';

describe("config-db's transform script", () => {
  beforeAll(() => loadJavaScriptEngine());

  const document = [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ];

  it('makes the configs a Go template over config writes as JSON, as config-db runs transform.gotemplate', () => {
    const gotemplate = '[ { {{range $i := .config}} "name-{{.id}}": "hi {{.name}}", {{end}} "id": "1" } ]';
    expect(scriptOutput({ transform: { gotemplate } }, document)).toEqual([{ 'name-1': 'hi a', 'name-2': 'hi b', id: '1' }]);
  });

  it('fails by name when the template output is not JSON or the template breaks', () => {
    expect(() => scriptOutput({ transform: { gotemplate: 'not json' } }, document)).toThrow(new ScriptError('transform.gotemplate returned text that is not JSON; return a list of configs'));
    expect(() => scriptOutput({ transform: { gotemplate: '{{ index .config 9 }}' } }, document)).toThrow(/transform\.gotemplate: /);
  });

  it('makes the configs a sandboxed JavaScript transform returns, as config-db runs file-script.yaml', () => {
    const javascript = 'for (var i = 0; i < config.length; i++) { config[i].added = "a"; config[i].id = String(config[i].id); }\nJSON.stringify(config)';
    expect(scriptOutput({ transform: { javascript } }, document)).toEqual([
      { id: '1', name: 'a', added: 'a' },
      { id: '2', name: 'b', added: 'a' },
    ]);
    expect(scriptOutput({ transform: { javascript: '_.map(config, function (c) { return { id: "x" + c.id }; })' } }, document)).toEqual([{ id: 'x1' }, { id: 'x2' }]);
  });

  it('fails by name when a JavaScript transform throws, loops or returns no configs', () => {
    expect(() => scriptOutput({ transform: { javascript: 'config.nope.deeper' } }, document)).toThrow(/^transform\.javascript: TypeError/);
    expect(() => scriptOutput({ transform: { javascript: '42' } }, document)).toThrow(new ScriptError('transform.javascript returned number; return a list of configs'));
    expect(() => scriptOutput({ transform: { javascript: 'typeof require === "undefined" ? "no" : "yes"' } }, document)).toThrow(/not JSON/);
  });

  it('keeps the CEL script as before, and the document itself without a script', () => {
    expect(scriptOutput({ transform: { expr: 'config.map(c, {"id": string(c.id)})' } }, document)).toEqual([{ id: '1' }, { id: '2' }]);
    expect(scriptOutput({}, document)).toEqual([document]);
  });
});
