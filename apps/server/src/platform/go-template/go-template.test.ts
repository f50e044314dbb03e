import { describe, expect, it } from 'vitest';
import { executeGoTemplate, GoTemplateError, parseGoTemplate } from './go-template';
import { goTemplateFunctions } from './template-functions';

const functions = goTemplateFunctions(() => new Date('2026-03-04T05:06:07.089Z'));
const FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(functions));

const data = {
  params: { namespace: 'Shop', replicas: '3', empty: '', names: ['a', 'b', 'c'], force: 'true' },
  config: { name: 'checkout', tags: { namespace: 'prod' }, config: { spec: { replicas: 2 } } },
  check: { labels: { pod: 'api-1' } },
  user: { email: 'ada@example.com' },
};

function render(text: string, steps = 10_000): string {
  return executeGoTemplate(parseGoTemplate(text, FUNCTION_NAMES), data, {
    functions,
    maxSteps: steps,
    maxOutput: 10_000,
  });
}

function parseError(text: string): string {
  try {
    parseGoTemplate(text, FUNCTION_NAMES);
  } catch (error) {
    if (error instanceof GoTemplateError) return error.message;
    throw error;
  }
  throw new Error('the template parsed');
}

describe('Go templates', () => {
  it('runs gomplate jq over a value piped in, and refuses at parse an expression that is more than a path', () => {
    expect(render('{{ .config.config | jq ".spec.replicas" }}|{{ jq ".tags.namespace" .config }}|{{ coll.JQ ".names[1]" .params }}')).toBe('2|prod|b');
    expect(parseError('{{ .config.config | jq ".spec | keys" }}')).toContain('"keys" is not supported by this server');
  });

  it('reads the delimiters a # gotemplate: header names among the leading # lines, drops that line, and leaves {{ as text', () => {
    const script = ['#! pwsh', '# gotemplate: left-delim=$[[ right-delim=]]', '$message = "$[[.config.name]]"', 'Write-Host "{{  $message }}"'].join('\n');
    expect(render(script)).toBe(['#! pwsh', '$message = "checkout"', 'Write-Host "{{  $message }}"'].join('\n'));
    expect(render('---\n# gotemplate: left-delim=<< right-delim=>>\nA <<- .config.name ->> B in <<.config.tags.namespace>>')).toBe('---\nAcheckoutB in prod');
    expect(render('# gotemplate: left-delim=[[\n[[ .config.name }}')).toBe('checkout');
  });

  it('keeps a # gotemplate: line after the script has begun as text, and refuses a header field gomplate does not read', () => {
    expect(render('echo hi\n# gotemplate: left-delim=[[ right-delim=]]\n{{ .config.name }}')).toBe('echo hi\n# gotemplate: left-delim=[[ right-delim=]]\ncheckout');
    expect(parseError('# gotemplate: left-delim=[[ trim=true\n[[ .x ]]')).toContain('names "trim=true"');
    expect(parseError('# gotemplate: left-delim=\n[[ .x ]]')).toContain('gives left-delim no delimiter');
  });

  it('refuses a character constant of more than one character, as Go does, and reads one as its code', () => {
    expect(parseError("{{ .config.config | jq '.status.message' }}")).toContain("malformed character constant: '.status.message'");
    expect(render("{{ print 'x' }}|{{ print '\\n' }}")).toBe('120|10');
  });

  it('reads fields of the data with a leading dot, as Mission Control writes them', () => {
    expect(render('{{.config.name}} in {{ .config.tags.namespace }} by {{.user.email}}')).toBe('checkout in prod by ada@example.com');
  });

  it('passes a value through a pipeline of gomplate functions, the value last', () => {
    expect(render('{{ .params.namespace | lower }}|{{ .params.namespace | toUpper }}|{{ strings.TrimPrefix "Sh" .params.namespace }}')).toBe('shop|SHOP|op');
    expect(render('{{ .params.empty | default "none" }}|{{ .params.replicas | default "1" }}')).toBe('none|3');
    expect(render('{{ .config.config | toJSON }}|{{ .params.names | join "," }}|{{ "a,b" | split "," | len }}')).toBe('{"spec":{"replicas":2}}|a,b,c|2');
    expect(render('{{ .params.namespace | quote }}|{{ "it\'s" | shellQuote }}|{{ contains "ho" .params.namespace }}|{{ hasPrefix "S" .params.namespace }}')).toBe(
      `"Shop"|'it'"'"'s'|true|true`,
    );
    expect(render('{{ replace "o" "0" .params.namespace }}|{{ trim "  x  " }}|{{ printf "%s=%d" "n" 3 }}')).toBe('Sh0p|x|n=3');
  });

  it('chooses text with if, else if and else, and repeats it with range', () => {
    expect(render('{{ if eq .params.force "true" }}--force{{ else }}--dry-run{{ end }}')).toBe('--force');
    expect(render('{{ if .params.empty }}a{{ else if .params.replicas }}b{{ else }}c{{ end }}')).toBe('b');
    expect(render('{{ range .params.names }}[{{ . }}]{{ end }}')).toBe('[a][b][c]');
    expect(render('{{ range $i, $n := .params.names }}{{ $i }}={{ $n }} {{ end }}')).toBe('0=a 1=b 2=c ');
    expect(render('{{ range .params.nope }}x{{ else }}none{{ end }}')).toBe('none');
    expect(render('{{ with .config.tags }}{{ .namespace }}{{ end }}')).toBe('prod');
    expect(render('{{ if and .params.nope .params.nope.deeper }}x{{ else }}short-circuited{{ end }}')).toBe('short-circuited');
  });

  it('trims the space beside {{- and -}} and drops comments', () => {
    expect(render('a   {{- .params.replicas -}}   b {{/* a comment */}}c')).toBe('a3b c');
  });

  it('formats the time with Go layouts', () => {
    expect(render('{{ (time.Now).Format "2006-01-02T15:04:05" }} {{ now.Unix }}')).toBe('2026-03-04T05:06:07 1772600767');
  });

  it("prints <no value> for a missing key, as Go's text/template does, and fails reading a field of nothing", () => {
    expect(render('[{{ .params.nope }}]')).toBe('[<no value>]');
    expect(() => render('{{ .params.nope.deeper }}')).toThrow('nil pointer evaluating interface {}.deeper');
    expect(() => render('{{ .params.replicas.x }}')).toThrow("can't evaluate field x in type string");
  });

  it('refuses at parse what it cannot run: unknown functions, unclosed blocks and template definitions', () => {
    expect(parseError('{{ .x | slackSectionTextMD }}')).toContain('function "slackSectionTextMD" not defined');
    expect(parseError('{{ if .x }}open')).toContain('has no {{ end }}');
    expect(parseError('{{ define "x" }}y{{ end }}')).toContain('not supported');
    expect(parseError('{{ .x ')).toContain('unclosed action');
    expect(parseError('{{ end }}')).toContain('unexpected {{ end }}');
  });

  it('stops a template that runs too many steps', () => {
    expect(() => render('{{ range .params.names }}{{ range $.params.names }}{{ . }}{{ end }}{{ end }}', 20)).toThrow('more than 20 steps');
  });

  it("reads $( ) actions beside {{ }} only when asked, with Go's trim markers and the action's own parentheses", () => {
    const run = (text: string, dollar: 'none' | 'all' | 'fields'): string =>
      executeGoTemplate(parseGoTemplate(text, FUNCTION_NAMES, { dollar, valueRoots: new Set(['params']) }), data, { functions, maxSteps: 1000, maxOutput: 1000 });
    expect(run('a $(.params.namespace) b', 'none')).toBe('a $(.params.namespace) b');
    expect(run('a  $(- (.params.namespace | lower) -)  b|$(params.replicas)', 'all')).toBe('ashopb|3');
    expect(run('x=$(hostname) y=$(.params.replicas)', 'fields')).toBe('x=$(hostname) y=3');
    expect(() => parseGoTemplate('$(.params.x', FUNCTION_NAMES, { dollar: 'all' })).toThrow(/unclosed action/);
  });
});

