import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkedAddress, isLocalAddress, isPlainlyLocalHost, mysqlUrlIsPlainlyLocal, pinnedSocketFactory, postgresUrlIsPlainlyLocal, type LookupAll } from './local-database';

const answers =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address }));

describe('isLocalAddress', () => {
  it('counts loopback, unspecified and IPv4-mapped loopback addresses as this host', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '0.0.0.0', '::1', '::', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect(isLocalAddress(address), address).toBe(true);
  });

  it('leaves other addresses and names to a lookup', () => {
    for (const address of ['10.0.0.8', '192.0.2.10', '2001:db8::1', 'db.example.test']) expect(isLocalAddress(address), address).toBe(false);
  });
});

describe('what a URL plainly says', () => {
  it('names this host through a socket folder, a host parameter, localhost or a loopback literal', () => {
    for (const url of [
      'postgres://u@%2Fvar%2Frun%2Fpostgresql/db',
      'postgres://u@db.example.test/db?host=/tmp',
      'postgres://u@localhost/db',
      'postgres://u@api.localhost/db',
      'postgres://u@[::1]:5432/db',
      'postgres:///db',
    ]) {
      expect(postgresUrlIsPlainlyLocal(url), url).toBe(true);
    }
    expect(mysqlUrlIsPlainlyLocal('mysql://root@127.0.0.1/mysql')).toBe(true);
    expect(mysqlUrlIsPlainlyLocal('mysql://root@db.example.test/mysql?socketPath=/run/mysqld/mysqld.sock')).toBe(true);
    expect(isPlainlyLocalHost('/tmp')).toBe(true);
  });

  it('does not refuse a remote database at save', () => {
    expect(postgresUrlIsPlainlyLocal('postgres://u@db.example.test:5432/db')).toBe(false);
    expect(mysqlUrlIsPlainlyLocal('mysql://root@db.example.test/mysql')).toBe(false);
  });
});

describe('checkedAddress', () => {
  it('refuses a unix socket and localhost without looking anything up', async () => {
    const never: LookupAll = async () => {
      throw new Error('looked up');
    };
    await expect(checkedAddress('/var/run/postgresql', never)).rejects.toThrow(/Unix socket/);
    await expect(checkedAddress('localhost', never)).rejects.toThrow(/localhost is this host/);
  });

  it('refuses a name when any of its addresses is this host, and otherwise picks its first address', async () => {
    await expect(checkedAddress('rebind.example.test', answers('192.0.2.10', '127.0.0.1'))).rejects.toThrow(/rebind\.example\.test is an address of this host/);
    await expect(checkedAddress('db.example.test', answers('192.0.2.10', '192.0.2.11'))).resolves.toBe('192.0.2.10');
    await expect(checkedAddress('192.0.2.12', answers('127.0.0.1'))).resolves.toBe('192.0.2.12');
  });
});

describe('pinnedSocketFactory', () => {
  it('connects to the checked address whatever host name the driver passes later', async () => {
    const listener = net.createServer((socket) => socket.end('pinned'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as net.AddressInfo;
    try {
      const socket = pinnedSocketFactory('127.0.0.1')();
      const received = new Promise<string>((resolve, reject) => {
        socket.once('data', (data) => resolve(data.toString()));
        socket.once('error', reject);
      });
      socket.connect(port, 'rebound.invalid');
      expect(await received).toBe('pinned');
      socket.destroy();
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
