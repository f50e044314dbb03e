import { describe, expect, it } from 'vitest';
import { GoTemplateError } from '../../platform/go-template/go-template';
import { renderCheckTemplate } from './check-template';

const data = { code: 200, json: { rates: { EUR: 0.92, GBP: 0.79 } }, results: { stdout: 'hello' }, name: 'Api', headers: { 'Content-Type': 'application/json' } };

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
    ['{{.headers.Content-Type}}', 'application/json'],
    // Supported since the check templates run on the playbooks' evaluator (they were refused before); the text is
    // canary-checker's output for the same template.
    ['{{ range $f := .results.files }}{{ $f.name }}{{ end }}', ''],
    ['{{ range $k, $v := .json.rates }}{{ $k }}={{ $v }} {{ end }}', 'EUR=0.92 GBP=0.79 '],
    ['{{ if .code }}ok{{ end }}', 'ok'],
    ['{{ $x := .code }}{{ $x }}', '200'],
    ['{{ with .results }}{{ .stdout }}{{ end }}', 'hello'],
  ])('renders %j as %j', (template, expected) => {
    expect(renderCheckTemplate(template, data)).toBe(expected);
  });

  it.each([
    ['{{ .code | humanize }}', /'humanize' is not supported/],
    ['{{ .code', /unclosed/],
  ])('refuses %j with an error that names what is not supported', (template, message) => {
    expect(() => renderCheckTemplate(template, data)).toThrow(GoTemplateError);
    expect(() => renderCheckTemplate(template, data)).toThrow(message);
  });
});
