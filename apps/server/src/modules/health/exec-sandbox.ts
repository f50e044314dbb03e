/**
 * How an exec check's script may run on this host (ADR 0042). Pure, so every branch is unit tested: the caller
 * gathers the facts (its uid, OPSDECK_EXEC_USER, /etc/passwd, whether prlimit exists) and spawns what comes back.
 */

export const DEFAULT_EXEC_USER = 'nobody';
export const PRLIMIT_PATH = '/usr/bin/prlimit';
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface SandboxUser {
  name: string;
  uid: number;
  gid: number;
}

export type ExecSandbox = { kind: 'drop-privileges'; user: SandboxUser } | { kind: 'refuse'; reason: string };

export interface SandboxFacts {
  /** The server's effective uid; null on a platform without one. */
  serverUid: number | null;
  /** OPSDECK_EXEC_USER as set; unset or blank means nobody. */
  configuredUser: string | undefined;
  /** The text of /etc/passwd. */
  passwd: string;
  prlimitAvailable: boolean;
}

const USER_NAME = /^[a-z_][a-z0-9_.-]*\$?$/i;
const HOW_TO =
  'Run the server as root: each script then runs as an unprivileged user (nobody, or the user named by OPSDECK_EXEC_USER) ' +
  'that cannot read the data folder or the secret key. See docs/adr/0042-exec-check-sandbox.md.';

/** The user of that name in /etc/passwd text, or null. */
export function findPasswdUser(passwd: string, name: string): SandboxUser | null {
  for (const line of passwd.split('\n')) {
    const [entryName, , uidText, gidText] = line.split(':');
    if (entryName !== name || uidText === undefined || gidText === undefined) continue;
    if (!/^\d+$/.test(uidText) || !/^\d+$/.test(gidText)) return null;
    return { name, uid: Number(uidText), gid: Number(gidText) };
  }
  return null;
}

/**
 * A script runs only as a separate unprivileged user: that takes a server running as root, to switch to it. Anything
 * else would run the script with the server's own rights, which can read DATA_DIR and its secret key, so it is refused.
 */
export function chooseExecSandbox(facts: SandboxFacts): ExecSandbox {
  if (facts.serverUid === null) return { kind: 'refuse', reason: `Exec checks cannot run on this platform: it cannot switch users. ${HOW_TO}` };
  if (facts.serverUid !== 0) {
    return {
      kind: 'refuse',
      reason: `Exec checks need the server to run as root, to drop each script to an unprivileged user; this server runs as uid ${facts.serverUid}. ${HOW_TO}`,
    };
  }
  const name = facts.configuredUser === undefined || facts.configuredUser.trim() === '' ? DEFAULT_EXEC_USER : facts.configuredUser.trim();
  if (!USER_NAME.test(name)) return { kind: 'refuse', reason: `OPSDECK_EXEC_USER '${name}' is not a user name` };
  const user = findPasswdUser(facts.passwd, name);
  if (user === null) return { kind: 'refuse', reason: `The exec check user '${name}' (OPSDECK_EXEC_USER) is not in /etc/passwd` };
  if (user.uid === 0 || user.gid === 0) {
    return { kind: 'refuse', reason: `The exec check user '${name}' (OPSDECK_EXEC_USER) has uid or gid 0; choose an unprivileged user` };
  }
  if (!facts.prlimitAvailable) return { kind: 'refuse', reason: `Exec checks need ${PRLIMIT_PATH} (util-linux) to bound a script's resources` };
  return { kind: 'drop-privileges', user };
}

export interface ExecLimits {
  cpuSeconds: number;
  addressSpaceBytes: number;
  processes: number;
  fileSizeBytes: number;
  openFiles: number;
}

/** CPU time is bounded by the wall-clock timeout; the rest are fixed ceilings no health probe needs to reach. */
export function execLimits(timeoutMs: number): ExecLimits {
  return {
    cpuSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)),
    addressSpaceBytes: 1024 * 1024 * 1024,
    processes: 64,
    fileSizeBytes: 16 * 1024 * 1024,
    openFiles: 256,
  };
}

/** prlimit's options, soft and hard limit alike so the script cannot raise them again. */
export function prlimitArguments(limits: ExecLimits): string[] {
  return [
    `--cpu=${limits.cpuSeconds}`,
    `--as=${limits.addressSpaceBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
  ];
}

/** Nothing of the server's environment: a fixed base, the private folder as home, then the check's own variables. */
export function sandboxEnvironment(home: string, specEnv: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return { PATH: SANDBOX_PATH, HOME: home, TMPDIR: home, LANG: 'C.UTF-8', ...(specEnv ?? {}) };
}
