import { describe, expect, it } from 'vitest';
import { GoTemplateError } from '../../platform/go-template/go-template';
import { renderCheckQuery, renderCheckTemplate } from './check-template';

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

describe('last_result and query templates', () => {
  const last = { status: true, results: { max: '2026-11-29T10:00:00Z', rows: [{ max: "o'hara", count: 1 }] } };

  it('reads the previous run through last_result, and finds nothing in it before the first run', () => {
    expect(renderCheckTemplate('{{- if last_result.results.max }}{{ last_result.results.max }}{{- else }}now-60d{{- end }}', {}, last)).toBe('2026-11-29T10:00:00Z');
    expect(renderCheckTemplate('{{- if last_result.results.max }}{{ last_result.results.max }}{{- else }}now-60d{{- end }}', {})).toBe('now-60d');
  });

  it('binds the values a query template prints as parameters of the dialect, never pasting them into the statement', () => {
    const template = "select * from t where name = '{{ (index last_result.results.rows 0).max }}' and n > {{ last_result.results.rows | len }}";
    expect(renderCheckQuery(template, {}, last, 'postgres')).toEqual({ query: 'select * from t where name = $1 and n > $2', args: ["o'hara", '1'] });
    expect(renderCheckQuery(template, {}, last, 'mysql')).toEqual({ query: 'select * from t where name = ? and n > ?', args: ["o'hara", '1'] });
    expect(renderCheckQuery('select 1', {}, undefined, 'postgres')).toEqual({ query: 'select 1', args: [] });
    expect(() => renderCheckQuery('select * from {{ "t; drop table x" }}', {}, undefined, 'postgres')).toThrow(/names a table, column or schema/);
  });
});
