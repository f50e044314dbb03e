import { describe, expect, it } from 'vitest';
import { commandForRun, scriptCommand } from './script-command';

describe('the command that runs an exec script', () => {
  it('gives a script without a #! line to bash whole, as before', () => {
    expect(scriptCommand('echo hi\n').command).toEqual(['/bin/bash', '-c', 'echo hi\n']);
  });

  it('runs python, node and a shell the #! line names, with the line dropped as duty drops it', () => {
    expect(scriptCommand('#!/usr/bin/env python3\nprint(1)').command).toEqual(['python3', '-c', 'print(1)']);
    expect(scriptCommand('#!/usr/bin/python3 -u\nprint(1)').command).toEqual(['/usr/bin/python3', '-u', '-c', 'print(1)']);
    expect(scriptCommand('#!/usr/bin/env node\nconsole.log(1)').command).toEqual(['node', '-e', 'console.log(1)']);
    expect(scriptCommand('#!/bin/sh\necho hi').command).toEqual(['/bin/sh', '-c', 'echo hi']);
    expect(scriptCommand('#! pwsh\nWrite-Host hi').command).toEqual(['pwsh', '-NoProfile', '-NonInteractive', '-Command', 'Write-Host hi']);
  });

  it('drops #! arguments that would make the interpreter read other code than the script', () => {
    expect(scriptCommand('#!/usr/bin/env python3 -c\nprint(1)').command).toEqual(['python3', '-c', 'print(1)']);
    expect(scriptCommand('#!/usr/bin/env node -e\nconsole.log(1)').command).toEqual(['node', '-e', 'console.log(1)']);
  });

  it('says before a run that an interpreter is not installed, or is not one this server runs', () => {
    expect(commandForRun('#!/usr/bin/env no-such-shell-xyz\n', {}, '/usr/bin:/bin')).toEqual({ error: expect.stringContaining('which this server does not run scripts with') });
    expect(commandForRun('#!/opt/none/python3\nprint(1)', {}, '/usr/bin:/bin')).toEqual({ error: 'The script was not started: /opt/none/python3, which its #! line names, is not installed on this server' });
    expect(commandForRun('#! node\nconsole.log(1)', {}, '/nowhere')).toEqual({ error: expect.stringContaining('node, which its #! line names, is not installed on this server (looked in /nowhere)') });
    expect(commandForRun('echo hi', {}, '/nowhere')).toEqual({ command: ['/bin/bash', '-c', 'echo hi'] });
  });
});
