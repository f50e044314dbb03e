import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkedHeaderValue, markValue, PlacementError, placeInBody, placeInPowerShell, placeInShell, placeInSql, placeInUrl, scriptInterpreter } from './value-placement';

const ATTACKS = ['x"; rm -rf / #', '$(touch /tmp/pwned)', '`id`', "'; drop table playbooks; --", 'a\nb', "it's", '\\', '${HOME}'];

/** Runs the placed script with bash and the values as its environment; what it printed. */
function bash(template: string): string {
  const { script, env } = placeInShell(template);
  const result = spawnSync('/bin/bash', ['-c', script], { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' });
  return result.stdout;
}

describe('values placed in a shell script', () => {
  it.each(ATTACKS)('keeps %j one argument outside quotes, inside double quotes and inside single quotes', (value) => {
    const v = markValue(value);
    expect(bash(`printf '<%s>' ${v} "--name=${v}" 'quoted ${v} end' --flag=${v}`)).toBe(`<${value}><--name=${value}><quoted ${value} end><--flag=${value}>`);
  });

  it('references each value as a variable, quoted for where it stands', () => {
    const v = markValue('x');
    expect(placeInShell(`echo ${v} "${v}" '${v}' $'${v}'`).script).toBe(
      `echo "\${OPSDECK_TEMPLATE_1}" "\${OPSDECK_TEMPLATE_2}" ''"\${OPSDECK_TEMPLATE_3}"'' $''"\${OPSDECK_TEMPLATE_4}"$''`,
    );
  });

  it('expands values in an unquoted here-document and inside command substitution', () => {
    const v = markValue('$(id) `id`');
    expect(bash(`cat <<EOF\nname: ${v}\nEOF\necho "[$(printf '%s' ${v})]"`)).toBe('name: $(id) `id`\n[$(id) `id`]\n');
  });

  it('drops a value in a comment and refuses one where bash would read it as code or could not expand it', () => {
    expect(bash(`echo ok # ${markValue('$(id)')}`)).toBe('ok\n');
    expect(() => placeInShell(`echo $(( ${markValue('1')} + 1 ))`)).toThrow(PlacementError);
    expect(() => placeInShell(`cat <<'EOF'\n${markValue('x')}\nEOF`)).toThrow(/quoted here-document/);
    expect(() => placeInShell(`echo \\${markValue('x')}`)).toThrow(/backslash/);
  });

  it('knows scripts another interpreter runs by their #! line', () => {
    expect(scriptInterpreter('#!/usr/bin/env python3\nprint(1)')).toBe('python3');
    expect(scriptInterpreter('#!/usr/bin/pwsh\n')).toBe('pwsh');
    expect(scriptInterpreter('#!/bin/bash\necho')).toBeNull();
    expect(scriptInterpreter('#!/usr/bin/env sh\necho')).toBeNull();
    expect(scriptInterpreter('echo')).toBeNull();
  });
});

describe('values placed in a PowerShell script', () => {
  const attack = '"; Remove-Item -Recurse C:\\ ; $(Get-Secret) `n \'';

  it('references each value as ${env:…} in code, double quotes and expanding here-strings, the value only in the environment', () => {
    const placed = placeInPowerShell(`$env:NO_COLOR = $true\n@{item= "${markValue(attack)}"} | ConvertTo-JSON\nWrite-Host ${markValue('b')}\n$x = @"\nname: ${markValue('c')}\n"@`);
    expect(placed.script).toBe('$env:NO_COLOR = $true\n@{item= "${env:OPSDECK_TEMPLATE_1}"} | ConvertTo-JSON\nWrite-Host ${env:OPSDECK_TEMPLATE_2}\n$x = @"\nname: ${env:OPSDECK_TEMPLATE_3}\n"@');
    expect(placed.env).toEqual({ OPSDECK_TEMPLATE_1: attack, OPSDECK_TEMPLATE_2: 'b', OPSDECK_TEMPLATE_3: 'c' });
  });

  it('drops a value in a comment and refuses one in single quotes, a literal here-string or after a backtick', () => {
    expect(placeInPowerShell(`# about ${markValue('x')}\n<# ${markValue('y')} #>\nWrite-Host 'it''s'`).script).toBe("# about \n<#  #>\nWrite-Host 'it''s'");
    expect(() => placeInPowerShell(`Write-Host '${markValue('x')}'`)).toThrow(PlacementError);
    expect(() => placeInPowerShell(`$x = @'\n${markValue('x')}\n'@`)).toThrow(PlacementError);
    expect(() => placeInPowerShell(`Write-Host \`${markValue('x')}`)).toThrow(/backtick/);
  });
});

describe('values placed in a SQL query', () => {
  it('binds each value as a parameter after the given args (postgres)', () => {
    expect(placeInSql(`select * from t where a = $1 and b = ${markValue("'; drop table playbooks; --")}`, 'postgres', ['one'])).toEqual({
      query: 'select * from t where a = $1 and b = $2',
      args: ['one', "'; drop table playbooks; --"],
    });
  });

  it('turns a quoted literal holding a value into the parameter or a concatenation', () => {
    expect(placeInSql(`select '${markValue('x')}'`, 'postgres', [])).toEqual({ query: 'select $1', args: ['x'] });
    expect(placeInSql(`select 'pre-${markValue('x')}-post'`, 'postgres', [])).toEqual({ query: "select ('pre-' || $1::text || '-post')", args: ['x'] });
    expect(placeInSql(`select now() - interval '${markValue('3')} days'`, 'postgres', [])).toEqual({ query: "select now() - CAST(($1::text || ' days') AS interval)", args: ['3'] });
    expect(placeInSql(`select 'it''s ${markValue('x')}'`, 'mysql', [])).toEqual({ query: "select CONCAT('it''s ', ?)", args: ['x'] });
  });

  it('puts mysql values among the given args in the order of their question marks', () => {
    expect(placeInSql(`select ? , ${markValue('b')}, '?', ?`, 'mysql', ['a', 'c'])).toEqual({ query: "select ? , ?, '?', ?", args: ['a', 'b', 'c'] });
  });

  it('refuses a value where the query names something, and drops one in a comment', () => {
    expect(() => placeInSql(`select * from ${markValue('users')}`, 'postgres', [])).toThrow(/names a table/);
    expect(() => placeInSql(`select * from t order by ${markValue('name')}`, 'postgres', [])).toThrow(/names a table/);
    expect(() => placeInSql(`select "${markValue('name')}" from t`, 'postgres', [])).toThrow(/quoted identifier/);
    expect(() => placeInSql(`select s.${markValue('name')} from t s`, 'postgres', [])).toThrow(/names a table/);
    expect(() => placeInSql(`do $$ begin perform ${markValue('x')}; end $$`, 'postgres', [])).toThrow(/dollar-quoted/);
    expect(placeInSql(`select 1 -- ${markValue('x')}\n`, 'postgres', [])).toEqual({ query: 'select 1 -- \n', args: [] });
  });
});

describe('values placed in a URL, a header and a body', () => {
  it('percent-encodes path and query values whole, and takes host characters only in the host', () => {
    expect(placeInUrl(`https://api.test/pods/${markValue('a/../b?c#d')}?q=${markValue('x&admin=1')}`)).toBe('https://api.test/pods/a%2F..%2Fb%3Fc%23d?q=x%26admin%3D1');
    expect(placeInUrl(`https://${markValue('eu')}.api.test/${markValue('..')}`)).toBe('https://eu.api.test/%2E%2E');
    expect(() => placeInUrl(`https://${markValue('evil.test/x?')}.api.test/`)).toThrow(/host/);
    expect(placeInUrl(markValue('https://whole.test/x?y=1'))).toBe('https://whole.test/x?y=1');
    expect(placeInUrl(`/relative/${markValue('a b')}`)).toBe('/relative/a%20b');
  });

  it('refuses a header value with a line break', () => {
    expect(() => checkedHeaderValue('X-Run', 'a\r\nSet-Cookie: admin=1')).toThrow(/line break/);
    expect(checkedHeaderValue('X-Run', 'fine')).toBe('fine');
  });

  it('escapes values inside JSON strings and writes a JSON value outside them', () => {
    const body = `{"name": "${markValue('x", "admin": true, "y": "')}", "count": ${markValue('3')}, "tags": ${markValue('{"a":1}')}, "text": ${markValue('not json')}}`;
    expect(JSON.parse(placeInBody(body, undefined))).toEqual({ name: 'x", "admin": true, "y": "', count: 3, tags: { a: 1 }, text: 'not json' });
    expect(placeInBody(`a=${markValue('b&c=d')}`, 'application/x-www-form-urlencoded')).toBe('a=b%26c%3Dd');
    expect(placeInBody(`hello ${markValue('world')}`, 'text/plain')).toBe('hello world');
  });
});
