import { describe, expect, it } from 'vitest';
import { GoTemplateError, renderGoTemplate } from './go-template';

const data = { code: 200, json: { rates: { EUR: 0.92, GBP: 0.79 } }, results: { stdout: 'hello' }, name: 'Api' };

describe('display templates in Go template syntax', () => {
  it.each([
    ['code={{.code}}', 'code=200'],
    ['€{{.json.rates.EUR}}, £{{ .json.rates.GBP }}', '€0.92, £0.79'],
    ['{{ .results.stdout }}', 'hello'],
    ['{{ .results }}', '{"stdout":"hello"}'],
    ['{{.missing}}', '<no value>'],
    ['{{ .name | upper }}', 'API'],
    ['{{ lower .name }}', 'api'],
    ['a  {{- " b " -}}  c', 'a b c'],
    ['{{/* a comment */}}x', 'x'],
    ['{{ len .json.rates }}', '2'],
  ])('renders %j as %j', (template, expected) => {
    expect(renderGoTemplate(template, data)).toBe(expected);
  });

  it.each([
    ['{{ range $f := .results.files }}{{ $f.name }}{{ end }}', /'\{\{range\}\}' is not supported/],
    ['{{ if .code }}ok{{ end }}', /'\{\{if\}\}' is not supported/],
    ['{{ $x := .code }}', /variables/],
    ['{{ .code | humanize }}', /'humanize' is not supported/],
    ['{{ .code', /unclosed/],
  ])('refuses %j with an error that names what is not supported', (template, message) => {
    expect(() => renderGoTemplate(template, data)).toThrow(GoTemplateError);
    expect(() => renderGoTemplate(template, data)).toThrow(message);
  });
});
