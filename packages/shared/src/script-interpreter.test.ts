import { describe, expect, it } from 'vitest';
import { scriptInterpreterProblem, shebangOf } from './script-interpreter';

describe('the interpreter a script names', () => {
  it('reads the #! line through env, keeping the interpreter arguments', () => {
    expect(shebangOf('#!/usr/bin/env python3 -u\nprint(1)')).toEqual({ interpreter: 'python3', args: ['-u'], base: 'python3', kind: 'python' });
    expect(shebangOf('#! pwsh\nWrite-Host hi')).toEqual({ interpreter: 'pwsh', args: [], base: 'pwsh', kind: 'pwsh' });
    expect(shebangOf('echo hi')).toBeNull();
  });

  it('refuses an interpreter the server does not run, naming it and the ones it runs', () => {
    expect(scriptInterpreterProblem('#!/usr/bin/env ruby\nputs 1')).toBe(
      'its #! line names ruby, which this server does not run scripts with: it runs bash, sh (dash, ash, ksh, zsh), python, python3, node, pwsh and powershell',
    );
    expect(scriptInterpreterProblem('#!/bin/bash\necho hi')).toBeNull();
    expect(scriptInterpreterProblem('echo hi')).toBeNull();
  });
});
