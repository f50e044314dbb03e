import type pg from 'pg';
import { can } from '@opsdeck/shared';
import { goText } from '../../platform/go-template/template-functions';

/**
 * duty's `catalog_traverse id type [direction]` for playbook templates: the live catalog items related to an item, of a
 * type (or a path of types, `A/B`, each step walked from the items the previous one found), in a direction (duty's
 * default, `incoming`, or `outgoing`), as Go structs (`.ID`, `.Name`, `.Type`, `.Config` as JSON text…).
 *
 * Go templates here are evaluated synchronously, and the answers live in the database. So a traversal answers from
 * what it has loaded, records what it was asked and did not have (answering an empty list meanwhile), and the
 * renderer (templating.ts) loads those answers with one query per step and renders again, for a bounded number of
 * rounds. The answer of the last render is the one kept: no render sees a question's stand-in list once it is loaded.
 */

export type TraverseDirection = 'incoming' | 'outgoing';

/** duty's depth for each walk (related_configs_recursive's default there). */
export const TRAVERSE_DEPTH = 5;
/** At most this many items answer one call; the nearest first. */
export const TRAVERSE_MAX_ITEMS = 100;
/** At most this many different calls in one template. */
export const TRAVERSE_MAX_CALLS = 20;
/** Renders of one template before it is failed: each may ask questions the previous answers made possible. */
export const TRAVERSE_MAX_ROUNDS = 5;
/** A type path walks at most this many steps. */
const MAX_TYPE_STEPS = 5;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A catalog item as duty's models.ConfigItem names its fields; `Config` is the item's JSON as text (hence `| json`). */
export interface TraversedItem {
  ID: string;
  Name: string;
  Type: string;
  ConfigClass: string;
  Status: string | null;
  Health: string | null;
  Ready: boolean | null;
  Description: string | null;
  Config: string | null;
  Tags: Record<string, unknown>;
  Labels: Record<string, unknown>;
  ParentID: string | null;
  Path: string;
  AgentID: string | null;
  ScraperID: string | null;
  ExternalID: string[];
  CreatedAt: string;
  UpdatedAt: string;
}

export interface TraverseQuestion {
  id: string;
  types: string[];
  direction: TraverseDirection;
}

/** Loads the answers of questions: one item list per question, in the same order. */
export type TraverseLoader = (questions: readonly TraverseQuestion[]) => Promise<TraversedItem[][]>;

export class TraverseError extends Error {}

function keyOf(question: TraverseQuestion): string {
  return JSON.stringify([question.id, question.types, question.direction]);
}

/** The question a call asks, or a TraverseError saying why its arguments are not one. */
export function traverseQuestion(args: readonly unknown[]): TraverseQuestion {
  if (args.length < 2 || args.length > 3) throw new TraverseError(`catalog_traverse takes an id, a type and an optional direction, not ${args.length} arguments`);
  const id = goText(args[0]).trim();
  const types = goText(args[1])
    .split('/')
    .map((type) => type.trim());
  if (types.some((type) => type === '')) throw new TraverseError('catalog_traverse needs a type such as Kubernetes::Pod, or a path of them joined by /');
  if (types.length > MAX_TYPE_STEPS) throw new TraverseError(`catalog_traverse walks at most ${MAX_TYPE_STEPS} types in a path`);
  const direction = args.length === 3 ? goText(args[2]).trim() : 'incoming';
  if (direction !== 'incoming' && direction !== 'outgoing') throw new TraverseError(`catalog_traverse's direction is incoming or outgoing, not ${JSON.stringify(direction)}`);
  return { id, types, direction };
}

/** The answers of one run's catalog_traverse calls, loaded as its templates ask for them. */
export class CatalogTraversal {
  private readonly answers = new Map<string, TraversedItem[]>();
  private readonly pending = new Map<string, TraverseQuestion>();

  constructor(private readonly loader: TraverseLoader) {}

  /** The answer when loaded; otherwise the question is recorded and an empty list stands in until the next render. */
  call(args: readonly unknown[]): TraversedItem[] {
    const question = traverseQuestion(args);
    const key = keyOf(question);
    const answer = this.answers.get(key);
    if (answer !== undefined) return answer;
    if (this.answers.size + this.pending.size >= TRAVERSE_MAX_CALLS && !this.pending.has(key)) {
      throw new TraverseError(`a template may ask catalog_traverse at most ${TRAVERSE_MAX_CALLS} different questions`);
    }
    this.pending.set(key, question);
    return [];
  }

  /** Whether a render asked something not loaded yet. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Loads the answers of every question asked since the last load. */
  async load(): Promise<void> {
    const questions = [...this.pending.values()];
    this.pending.clear();
    if (questions.length === 0) return;
    const answers = await this.loader(questions);
    questions.forEach((question, index) => this.answers.set(keyOf(question), answers[index] ?? []));
  }

  /** Forgets questions recorded by a render whose result is thrown away for another reason. */
  discardPending(): void {
    this.pending.clear();
  }
}

interface ItemRow {
  id: string;
  name: string;
  type: string;
  config_class: string;
  status: string | null;
  health: string | null;
  ready: boolean | null;
  description: string | null;
  config: string | null;
  tags: Record<string, unknown> | null;
  labels: Record<string, unknown> | null;
  parent_id: string | null;
  path: string;
  agent_id: string | null;
  scraper_id: string | null;
  external_id: string[] | null;
  created_at: string;
  updated_at: string;
}

function itemOf(row: ItemRow): TraversedItem {
  return {
    ID: row.id,
    Name: row.name,
    Type: row.type,
    ConfigClass: row.config_class,
    Status: row.status,
    Health: row.health,
    Ready: row.ready,
    Description: row.description,
    Config: row.config,
    Tags: row.tags ?? {},
    Labels: row.labels ?? {},
    ParentID: row.parent_id,
    Path: row.path,
    AgentID: row.agent_id,
    ScraperID: row.scraper_id,
    ExternalID: row.external_id ?? [],
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

/**
 * One step of every question at once: from each start, the live items of the step's type the walk reaches within
 * TRAVERSE_DEPTH (soft and hard relations, as duty's default), the start itself left out as duty does, nearest first.
 */
async function walkStep(pool: pg.Pool, starts: ReadonlyArray<{ question: number; id: string; type: string; direction: TraverseDirection }>): Promise<Array<{ question: number; id: string }>> {
  if (starts.length === 0) return [];
  const found = await pool.query<{ question: number; id: string }>(
    `select q.question, r.id
       from unnest($1::int[], $2::uuid[], $3::text[], $4::text[]) as q(question, start_id, type, direction)
       cross join lateral related_configs_recursive(q.start_id, false, $5::integer, array[q.type], null, null, q.direction, 'both', 'both') r
      where r.id <> q.start_id and r.deleted_at is null
      order by q.question, r.depth, r.name, r.id`,
    [starts.map((start) => start.question), starts.map((start) => start.id), starts.map((start) => start.type), starts.map((start) => start.direction), TRAVERSE_DEPTH],
  );
  return found.rows;
}

/**
 * The loader of a run's traversals: items of the catalog, only when the run's requester may read the catalog (every
 * role does today; a run with no requester, started by an event or a webhook, reads as the playbook, as in Mission
 * Control), only live ones, at most TRAVERSE_MAX_ITEMS per question.
 */
export function catalogTraverseLoader(pool: pg.Pool, requester: string | null): TraverseLoader {
  let readable: Promise<boolean> | null = null;
  const mayRead = (): Promise<boolean> => {
    readable ??=
      requester === null
        ? Promise.resolve(true)
        : pool.query<{ roles: string[] }>('select roles from people_roles where id = $1', [requester]).then((found) => {
            const row = found.rows[0];
            return row !== undefined && can(row.roles, 'database', 'read');
          });
    return readable;
  };
  return async (questions) => {
    if (!(await mayRead())) return questions.map(() => []);
    let reached: Array<Set<string>> = questions.map((question) => new Set(UUID.test(question.id) ? [question.id] : []));
    const steps = Math.max(...questions.map((question) => question.types.length));
    for (let step = 0; step < steps; step += 1) {
      const starts = questions.flatMap((question, index) => {
        const type = question.types[step];
        if (type === undefined) return [];
        return [...(reached[index] ?? [])].map((id) => ({ question: index, id, type, direction: question.direction }));
      });
      const rows = await walkStep(pool, starts);
      const next: Array<Set<string>> = questions.map((question, index) => (question.types[step] === undefined ? (reached[index] ?? new Set()) : new Set()));
      for (const row of rows) next[row.question]?.add(row.id);
      reached = next.map((ids) => new Set([...ids].slice(0, TRAVERSE_MAX_ITEMS)));
    }
    const ids = [...new Set(reached.flatMap((set) => [...set]))];
    const items = new Map<string, TraversedItem>();
    if (ids.length > 0) {
      const found = await pool.query<ItemRow>(
        `select id, name, type, config_class, status, health, ready, description, config::text as config, tags, labels, parent_id, path,
                agent_id, scraper_id, external_id, created_at::text as created_at, updated_at::text as updated_at
           from config_items where id = any($1::uuid[]) and deleted_at is null`,
        [ids],
      );
      for (const row of found.rows) items.set(row.id, itemOf(row));
    }
    return reached.map((set) => [...set].flatMap((id) => items.get(id) ?? []));
  };
}
