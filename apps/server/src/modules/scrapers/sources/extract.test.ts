import { describe, expect, it } from 'vitest';
import { fieldValue, ItemCollector, parseDocuments, parseProperties, splitDocument } from './extract';

const origin = { where: 'file[0] /srv/a.yaml', source: 'file:///srv/a.yaml', format: 'yaml' };

describe('extracting items from scraped documents', () => {
  it('evaluates a $ expression against the item and keeps any other text as a literal', () => {
    const item = { metadata: { name: 'web' } };
    expect(fieldValue('$.metadata.name', item)).toBe('web');
    expect(fieldValue('File::Config', item)).toBe('File::Config');
    expect(fieldValue('$.missing', item)).toBeUndefined();
  });

  it('refuses a JSONPath script expression instead of running it', () => {
    const collector = new ItemCollector({ id: '$[(@.a)]', type: 'File::Config' });
    collector.addPiece({ a: 1 }, origin);
    const result = collector.result();
    expect(result.items).toEqual([]);
    expect(result.errors[0]?.message).toMatch(/cannot be evaluated.*filter or script/);
  });

  it('names an item by the first value a JSONPath filter finds, as config-db does', () => {
    const collector = new ItemCollector({ id: '$.InstanceId', name: '$.Tags[?(@.Key=="Name")].Value', type: 'AWS::EC2::Instance' });
    collector.addPiece({ InstanceId: 'i-1', Tags: [{ Key: 'Env', Value: 'prod' }, { Key: 'Name', Value: 'web' }] }, origin);
    expect(collector.result().items.map((item) => item.name)).toEqual(['web']);
  });

  it('splits a document into the elements of the list items finds', () => {
    const document = { servers: [{ id: 1 }, { id: 2 }] };
    expect(splitDocument({ items: '$.servers' }, document)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(splitDocument({ items: '$.servers[*]' }, document)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(splitDocument({}, document)).toEqual([document]);
  });

  it('builds an item with id, type, name, labels, tags, health, status, format and source', () => {
    const collector = new ItemCollector({
      id: '$.id',
      type: '$.kind',
      name: '$.title',
      labels: { team: '$.owner', tier: 'gold' },
      tags: [{ name: 'env', jsonpath: '$.env' }],
      health: '$.state',
      status: '$.phase',
      createFields: ['$.created'],
    });
    collector.addPiece({ id: 7, kind: 'Server::Linux', title: 'db-1', owner: 'ops', env: 'prod', state: 'Healthy', phase: 'Running', created: '2024-01-02T03:04:05Z' }, origin);
    const { items, errors, complete } = collector.result();
    expect(errors).toEqual([]);
    expect(complete).toBe(true);
    expect(items).toEqual([
      expect.objectContaining({
        externalId: '7',
        type: 'Server::Linux',
        name: 'db-1',
        labels: { team: 'ops', tier: 'gold' },
        tags: { env: 'prod' },
        health: 'healthy',
        status: 'Running',
        format: 'yaml',
        source: 'file:///srv/a.yaml',
        createdAt: '2024-01-02T03:04:05.000Z',
      }),
    ]);
  });

  it('names an item without an id as an error entry and marks the result incomplete', () => {
    const result = new ItemCollector({ id: '$.id', type: 'File::Config', items: '$[*]' });
    result.addDocument([{ id: 'a' }, { other: 1 }], origin);
    const { items, errors, complete } = result.result();
    expect(items.map((item) => item.externalId)).toEqual(['a']);
    expect(errors).toEqual([{ where: 'file[0] /srv/a.yaml item[1]', message: expect.stringMatching(/no id/) }]);
    expect(complete).toBe(false);
  });

  it('keeps a bare type as config-db does, joins another class with it, and refuses text that is no type', () => {
    const bare = new ItemCollector({ id: '$.id', type: 'Config' });
    bare.addPiece({ id: 'a' }, origin);
    expect(bare.result().items[0]?.type).toBe('Config');
    const same = new ItemCollector({ id: '$.id', class: 'Car', type: 'Car' });
    same.addPiece({ id: 'a' }, origin);
    expect(same.result().items[0]?.type).toBe('Car');
    const joined = new ItemCollector({ id: '$.id', class: 'File', type: 'Config' });
    joined.addPiece({ id: 'a' }, origin);
    expect(joined.result().items[0]?.type).toBe('File::Config');
    const nested = new ItemCollector({ id: '$.id', type: 'AWS::EC2::Instance' });
    nested.addPiece({ id: 'a' }, origin);
    expect(nested.result().items[0]?.type).toBe('AWS::EC2::Instance');
    const bad = new ItemCollector({ id: '$.id', type: 'not a type!' });
    bad.addPiece({ id: 'a' }, origin);
    expect(bad.result().errors[0]?.message).toMatch(/is not a type/);
  });

  it('reads a field JSONPath written with @, and items with or without the leading $', () => {
    const collector = new ItemCollector({ id: '@.name', type: 'Db::Database', items: '.database' });
    collector.addDocument({ database: [{ name: 'orders' }, { name: 'users' }] }, origin);
    expect(collector.result().items.map((item) => item.externalId)).toEqual(['orders', 'users']);
  });

  it('replaces each document by the configs a CEL transform.expr returns, as a list or as its toJSON()', () => {
    const asList = new ItemCollector({ id: '$.id', type: 'Todo::Task', transform: { expr: 'config.filter(t, t.id < 3)' } });
    asList.addDocument([{ id: 1 }, { id: 2 }, { id: 5 }], origin);
    expect(asList.result().items.map((item) => item.externalId)).toEqual(['1', '2']);
    const asText = new ItemCollector({ id: '$.id', type: 'Todo::Task', transform: { expr: 'config.items.map(t, {"id": t.key}).toJSON()' } });
    asText.addDocument({ items: [{ key: 'x' }, { key: 'y' }] }, origin);
    expect(asText.result().items.map((item) => item.config)).toEqual([{ id: 'x' }, { id: 'y' }]);
    const failing = new ItemCollector({ id: '$.id', type: 'Todo::Task', transform: { expr: 'config.nope' } });
    failing.addDocument({ id: 'a' }, origin);
    expect(failing.result()).toMatchObject({ items: [], complete: false });
  });

  it('gives a tag the value of the label it names', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'App::Service', labels: { team: '$.team' }, tags: [{ name: 'owner', label: 'team' }, { name: 'env', value: 'prod' }] });
    collector.addPiece({ id: 'a', team: 'payments' }, origin);
    expect(collector.result().items[0]?.tags).toEqual({ owner: 'payments', env: 'prod' });
  });

  it('keeps the first of two items with the same type and id and reports the second', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'File::Config', name: '$.n' });
    collector.addPiece({ id: 'a', n: 'first' }, origin);
    collector.addPiece({ id: 'a', n: 'second' }, origin);
    const result = collector.result();
    expect(result.items.map((item) => item.name)).toEqual(['first']);
    expect(result.errors[0]?.message).toMatch(/duplicate/);
  });

  it('leaves out an item whose deleteFields name a time, so the ingest deletes it', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'File::Config', deleteFields: ['$.deletedAt'] });
    collector.addPiece({ id: 'a', deletedAt: '2024-05-01T00:00:00Z' }, origin);
    collector.addPiece({ id: 'b' }, origin);
    expect(collector.result().items.map((item) => item.externalId)).toEqual(['b']);
  });

  it('parses every YAML document of a stream, skipping empty ones, and reports a syntax error', () => {
    expect(parseDocuments('a: 1\n---\n---\nb: 2\n', 'yaml')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(() => parseDocuments('a: [1, 2\n', 'yaml')).toThrow(/not valid YAML/);
    expect(() => parseDocuments('{"a":', 'json')).toThrow(/not valid JSON/);
  });
});

describe('parseProperties', () => {
  it('reads key = value, key: value and key value lines, skipping comments and trimming trailing ones outside quotes', () => {
    const text = [
      '# PostgreSQL configuration',
      '',
      "listen_addresses = '*'\t\t# what IP address(es) to listen on",
      'max_connections = 100  # change requires restart',
      "cluster_name = 'main # not a comment'",
      'shared_buffers: 128MB',
      'port 5432',
      '! also a comment',
      'long = one \\',
      '  two',
    ].join('\n');
    expect(parseProperties(text)).toEqual({
      listen_addresses: "'*'",
      max_connections: '100',
      cluster_name: "'main # not a comment'",
      shared_buffers: '128MB',
      port: '5432',
      long: 'one two',
    });
  });
});

describe("config-db's full mode", () => {
  it('stores the config key as the config and turns changes into changes of the item, known by their content', () => {
    const collector = new ItemCollector({ id: '$.reg_no', type: 'Car' }, true);
    const piece = { reg_no: 'A123', config: { colour: 'blue' }, changes: [{ action: 'drive', summary: 'car colour changed to blue', severity: 'HIGH' }] };
    collector.addPiece(piece, origin);
    const again = new ItemCollector({ id: '$.reg_no', type: 'Car' }, true);
    again.addPiece(piece, origin);
    const [first, second] = [collector.result(), again.result()];
    expect(first.errors).toEqual([]);
    expect(first.items.map((item) => [item.type, item.externalId, item.config])).toEqual([['Car', 'A123', { colour: 'blue' }]]);
    expect(first.changes).toEqual([
      expect.objectContaining({ item: { type: 'Car', externalId: 'A123' }, changeType: 'drive', severity: 'high', summary: 'car colour changed to blue', source: origin.source }),
    ]);
    expect(first.changes[0]?.externalChangeId).toMatch(/^content:[0-9a-f]{40}$/);
    expect(second.changes[0]?.externalChangeId).toBe(first.changes[0]?.externalChangeId);
  });

  it('keeps the whole piece as the config when it has no config key, and takes a change for another config by its ids', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'Car' }, true);
    collector.addPiece(
      { id: 'B1', changes: [{ change_type: 'Sold', external_id: 'B2', config_type: 'Truck', external_change_id: 'sale-7', created_at: '2026-11-01T10:00:00Z', details: { to: 'x' } }] },
      origin,
    );
    const result = collector.result();
    expect(result.items[0]?.config).toEqual(expect.objectContaining({ id: 'B1' }));
    expect(result.changes).toEqual([
      { item: { type: 'Truck', externalId: 'B2' }, externalChangeId: 'sale-7', changeType: 'Sold', severity: 'info', summary: 'Sold', source: origin.source, createdAt: '2026-11-01T10:00:00.000Z', details: { to: 'x' } },
    ]);
  });

  it('reports access data and analysis as not run, once per source, and makes no config of a piece that holds only access data', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'Organization' }, true);
    collector.addPiece({ id: 'org', config: { name: 'Org' }, external_users: [{ name: 'Alice' }], config_access: [{ id: 'a1' }] }, origin);
    collector.addPiece({ id: 'org-2', config: { name: 'Org 2' }, external_users: [{ name: 'Bob' }] }, origin);
    collector.addPiece({ users: [{ name: 'Carol' }] }, origin);
    const result = collector.result();
    expect(result.items.map((item) => item.externalId)).toEqual(['org', 'org-2']);
    expect(result.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^full mode: config_access is not run by this server/),
      expect.stringMatching(/^full mode: external_users is not run by this server/),
      expect.stringMatching(/^full mode: users is not run by this server/),
    ]);
    expect(result.complete).toBe(false);
  });

  it('refuses change actions that would move or delete configs, and changes that are not a list, naming them', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'Car' }, true);
    collector.addPiece({ id: 'C1', changes: [{ action: 'delete' }, { change_type: 'Wash' }] }, origin);
    collector.addPiece({ id: 'C2', changes: 'washed' }, origin);
    const result = collector.result();
    expect(result.changes.map((change) => change.changeType)).toEqual(['Wash']);
    expect(result.errors).toEqual([
      { where: `${origin.where} changes[0]`, message: expect.stringMatching(/change action 'delete' is not run by this server/) },
      { where: origin.where, message: 'full mode: changes must be a list of changes' },
    ]);
  });

  it("names the fields of a change it does not store (patches, diff, scraper_id …) instead of dropping them unseen", () => {
    const collector = new ItemCollector({ id: '$.id', type: 'Car' }, true);
    collector.addPiece({ id: 'E1', changes: [{ change_type: 'Paint', patches: '{"colour":"red"}', scraper_id: 'all' }, { change_type: 'Wash', patches: '{}' }] }, origin);
    const result = collector.result();
    expect(result.changes.map((change) => change.changeType)).toEqual(['Paint', 'Wash']);
    expect(result.errors.map((error) => error.message)).toEqual([
      'full mode: changes[].scraper_id is not run by this server: the change is stored without it',
      'full mode: changes[].patches is not run by this server: the change is stored without it',
    ]);
  });

  it('reads a changes key as part of the config when full mode is off', () => {
    const collector = new ItemCollector({ id: '$.id', type: 'Car' });
    collector.addPiece({ id: 'D1', changes: [{ change_type: 'Wash' }] }, origin);
    expect(collector.result().changes).toEqual([]);
    expect(collector.result().items[0]?.config).toEqual({ id: 'D1', changes: [{ change_type: 'Wash' }] });
  });
});
