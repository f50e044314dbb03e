import { describe, expect, it } from 'vitest';
import { ScriptError, scriptOutput } from './script';

describe("config-db's transform script", () => {
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

  it('keeps the CEL script as before, and the document itself without a script', () => {
    expect(scriptOutput({ transform: { expr: 'config.map(c, {"id": string(c.id)})' } }, document)).toEqual([{ id: '1' }, { id: '2' }]);
    expect(scriptOutput({}, document)).toEqual([document]);
  });
});
