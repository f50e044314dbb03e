import path from 'node:path';
import type { SFTPWrapper, Stats } from 'ssh2';
import { sshLibrary } from '../../../platform/client-libraries';
import type { FolderEntry, FolderReader } from './folder-checker';

/** Where a folder check's SFTP server is and who it logs in as. */
export interface SftpAccess {
  host: string;
  port: number;
  username: string;
  password: string | null;
}

/** Why the SFTP server could not be read: the check fails with it. */
export class SftpFolderError extends Error {}

const FILE_TYPE = 0o170000;
const DIRECTORY = 0o040000;
const REGULAR = 0o100000;

function entryOf(name: string, full: string, stats: Stats): FolderEntry {
  const type = stats.mode & FILE_TYPE;
  return { name, full, size: stats.size, modified: new Date(stats.mtime * 1000), mode: stats.mode, isDir: type === DIRECTORY, isFile: type === REGULAR };
}

function readerOf(sftp: SFTPWrapper): FolderReader {
  return {
    entries: (folder, limit) =>
      new Promise((resolve) => {
        sftp.readdir(folder, (error, list) => {
          // As for a local folder: one that cannot be read holds nothing (minCount is what catches it).
          if (error !== undefined && error !== null) {
            resolve({ entries: [], more: false });
            return;
          }
          const visible = list.filter((item) => item.filename !== '.' && item.filename !== '..');
          resolve({
            entries: visible.slice(0, limit).map((item) => entryOf(item.filename, path.posix.join(folder, item.filename), item.attrs)),
            more: visible.length > limit,
          });
        });
      }),
    stat: (target) =>
      new Promise((resolve) => {
        sftp.stat(target, (error, stats) => resolve(error !== undefined && error !== null ? null : entryOf(path.posix.basename(target), target, stats)));
      }),
    join: (...parts) => path.posix.join(...parts),
  };
}

/**
 * Logs in over SSH with a password, opens SFTP and hands `work` a reader of the server's folders; the session ends
 * when work does, when the check's time is up, or when the check is stopped. canary-checker does not pin host keys
 * either: the password is bound to the host named in the spec (sealed for it), which is what keeps it from going
 * anywhere else.
 */
export async function withSftpFolders<T>(access: SftpAccess, timeoutMs: number, signal: AbortSignal, work: (reader: FolderReader) => Promise<T>): Promise<T> {
  const { Client } = await sshLibrary();
  return new Promise<T>((resolve, reject) => {
    const client = new Client();
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      client.end();
      outcome();
    };
    const fail = (message: string): void => finish(() => reject(new SftpFolderError(message)));
    const onAbort = (): void => fail('the check was stopped');
    const timer = setTimeout(() => fail(`sftp://${access.host}:${access.port} did not answer within ${timeoutMs}ms`), timeoutMs);
    signal.addEventListener('abort', onAbort);
    client.on('error', (error) => fail(`sftp://${access.host}:${access.port}: ${error.message}`));
    client.on('ready', () => {
      client.sftp((error, sftp) => {
        if (error !== undefined && error !== null) {
          fail(`sftp://${access.host}:${access.port}: ${error.message}`);
          return;
        }
        work(readerOf(sftp)).then(
          (value) => finish(() => resolve(value)),
          (cause: unknown) => fail(cause instanceof Error ? cause.message : String(cause)),
        );
      });
    });
    client.connect({
      host: access.host,
      port: access.port,
      username: access.username,
      ...(access.password === null ? {} : { password: access.password }),
      readyTimeout: timeoutMs,
      tryKeyboard: false,
    });
  });
}
