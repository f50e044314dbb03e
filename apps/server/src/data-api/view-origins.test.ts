import { describe, expect, it } from 'vitest';
import { parseNodeTree, viewOutputColumns } from './view-origins';

function entry(resno: number, name: string, relid: number, attnum: number, expr = '{VAR :varno 1 :varattno 1 :location -1}', junk = false): string {
  return `{TARGETENTRY :expr ${expr} :resno ${resno} :resname ${name} :ressortgroupref 0 :resorigtbl ${relid} :resorigcol ${attnum} :resjunk ${junk}}`;
}

function query(targets: string[], extra = ':setOperations <>', rtable = '<>'): string {
  return `{QUERY :commandType 1 :utilityStmt <> :rtable ${rtable} :targetList (${targets.join(' ')}) ${extra} :stmt_len -1}`;
}

describe('viewOutputColumns', () => {
  it('gives a plain column its table column and a computed one none', () => {
    const coalesce = '{COALESCEEXPR :args ({VAR :varno 2} {CONST :constlen 4 :constisnull false :location -1 :constvalue 4 [ 0 0 0 0 ]}) :location -1}';
    const action = `(${query([entry(1, 'id', 100, 1), entry(2, 'pending', 0, 0, coalesce), entry(3, 'person_id', 100, 7)])})`;
    expect(viewOutputColumns(action)).toEqual([
      { name: 'id', origins: [{ relid: 100, attnum: 1 }] },
      { name: 'pending', origins: null },
      { name: 'person_id', origins: [{ relid: 100, attnum: 7 }] },
    ]);
  });

  it('reads only the outer target list, not the one of a subquery in FROM, and skips junk entries', () => {
    const lateral = `({RANGETBLENTRY :rtekind 1 :subquery ${query([entry(1, 'inner_only', 55, 2)])} :lateral true})`;
    const action = `(${query([entry(1, 'id', 100, 1), entry(2, 'ctid', 100, -1, undefined, true)], ':setOperations <>', lateral)})`;
    expect(viewOutputColumns(action)).toEqual([{ name: 'id', origins: [{ relid: 100, attnum: 1 }] }]);
  });

  it('unescapes names holding spaces and parentheses', () => {
    const action = `(${query([entry(1, 'we\\(ird\\)\\ x', 100, 3)])})`;
    expect(viewOutputColumns(action)).toEqual([{ name: 'we(ird) x', origins: [{ relid: 100, attnum: 3 }] }]);
  });

  it('collects every branch of a UNION, and none when one branch computes the column', () => {
    const branch = (relid: number, agentOrigin: number): string =>
      `{RANGETBLENTRY :alias {ALIAS :aliasname *SELECT*\\ 1 :colnames <>} :rtekind 1 :subquery ${query([entry(1, 'id', relid, 1), entry(2, 'agent_id', agentOrigin === 0 ? 0 : relid, agentOrigin)])}}`;
    const rtable = `(${branch(200, 5)} ${branch(300, 0)} ${branch(400, 6)})`;
    const setOperations =
      ':setOperations {SETOPERATIONSTMT :op 1 :all true :larg {SETOPERATIONSTMT :op 1 :all true :larg {RANGETBLREF :rtindex 1} :rarg {RANGETBLREF :rtindex 2}} :rarg {RANGETBLREF :rtindex 3}}';
    const action = `(${query([entry(1, 'id', 0, 0), entry(2, 'agent_id', 0, 0)], setOperations, rtable)})`;
    expect(viewOutputColumns(action)).toEqual([
      { name: 'id', origins: [{ relid: 200, attnum: 1 }, { relid: 300, attnum: 1 }, { relid: 400, attnum: 1 }] },
      { name: 'agent_id', origins: null },
    ]);
  });

  it('answers no columns for a tree it cannot read rather than failing the schema load', () => {
    expect(viewOutputColumns('({QUERY :targetList (')).toEqual([]);
    expect(viewOutputColumns('not a tree')).toEqual([]);
  });
});

describe('parseNodeTree', () => {
  it('reads nodes, lists, nulls and atoms', () => {
    expect(parseNodeTree('({A :x 1 :y <> :z (i 1 2)} {B :s "text"})')).toEqual([
      { name: 'A', fields: new Map<string, unknown>([['x', '1'], ['y', null], ['z', ['i', '1', '2']]]) },
      { name: 'B', fields: new Map([['s', '"text"']]) },
    ]);
  });
});
