import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chooseExecSandbox, PRLIMIT_PATH, type ExecSandbox, type SandboxUser } from './exec-sandbox';

/** The sandbox this host offers now (exec-sandbox.ts decides from these facts), for exec checks and exec playbook actions. */
export function currentSandbox(): ExecSandbox {
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // No passwd file: the sandbox user cannot be found, which chooseExecSandbox reports.
  }
  return chooseExecSandbox({
    serverUid: typeof process.geteuid === 'function' ? process.geteuid() : null,
    configuredUser: process.env.OPSDECK_EXEC_USER,
    passwd,
    prlimitAvailable: existsSync(PRLIMIT_PATH),
  });
}

/** Removed as the sandbox user, so a symlink the script planted cannot turn the removal against the server's files. */
export async function removeAsUser(folder: string, user: SandboxUser): Promise<void> {
  await new Promise<void>((resolve) => {
    const rm = spawn('/bin/rm', ['-rf', '--', folder], { uid: user.uid, gid: user.gid, env: {}, stdio: 'ignore' });
    rm.on('error', () => resolve());
    rm.on('close', () => resolve());
  });
}
