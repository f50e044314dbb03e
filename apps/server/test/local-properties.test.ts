import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

describe('local properties', () => {
  let server: TestServer;
  beforeAll(async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-props-')), 'opsdeck.properties');
    writeFileSync(file, '# local flags\nlogs.disable=true\n');
    process.env.OPSDECK_PROPERTIES_FILE = file;
    server = await startTestServer();
  });
  afterAll(async () => {
    delete process.env.OPSDECK_PROPERTIES_FILE;
    await server.close();
  });

  it('loads the properties file into the properties table with source local', async () => {
    const { rows } = await server.pool.query(`select value, source from properties where name = 'logs.disable'`);
    expect(rows).toEqual([{ value: 'true', source: 'local' }]);
  });

  it('refuses to update or delete a local property with a clear message', async () => {
    await expect(server.pool.query(`update properties set value = 'false' where name = 'logs.disable'`)).rejects.toThrow(
      'Cannot edit local feature flags',
    );
    await expect(server.pool.query(`delete from properties where name = 'logs.disable'`)).rejects.toThrow('Cannot edit local feature flags');
  });

  it('refuses to create a property that claims to be local', async () => {
    await expect(server.pool.query(`insert into properties (name, value, source) values ('x.disable', 'true', 'local')`)).rejects.toThrow(
      /reserved/,
    );
  });
});
