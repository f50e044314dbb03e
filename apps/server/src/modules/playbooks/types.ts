import type pg from 'pg';
import type { CollectedArtifact } from '../health';
import type { CatalogTraversal } from './catalog-traverse';
import type { ExecAction, HttpAction, NotificationAction, PlaybookAction, PlaybookActionResult, PlaybookTargetType, PlaybookWebhookRequest } from '@opsdeck/shared';

/**
 * The contract between the playbook spec (spec.ts, selectors.ts), templating (templating.ts), the run engine
 * (run-store.ts, run-lease-store.ts, run-action-store.ts, playbook-worker.ts, playbook-routes.ts) and the action runners
 * (actions/).
 */

/** The resource a run targets, as selectors match it and templates read it. */
export interface PlaybookTarget {
  type: PlaybookTargetType;
  id: string;
  name: string;
  /** Config type (`Kubernetes::Pod`), component type or check type. */
  kind: string | null;
  namespace: string | null;
  /** Config tags; empty for components and checks. */
  tags: Record<string, string>;
  labels: Record<string, string>;
  status: string | null;
  health: string | null;
  /** The whole row as templates and CEL see it under `config`, `component` or `check` (config content under `config.config`). */
  row: Record<string, unknown>;
}

export interface ActionState {
  status: string;
  error: string | null;
  result: PlaybookActionResult | null;
}

/** What templates and `if` conditions see. */
export interface TemplateContext {
  /** The run's parameters; a config, component or check parameter as its item (run-store.ts templateParameters). */
  params: Record<string, unknown>;
  /** Exactly one of these is set when the run has a target. */
  config?: Record<string, unknown>;
  component?: Record<string, unknown>;
  check?: Record<string, unknown>;
  playbook: { id: string; name: string; title: string | null };
  run: { id: string };
  user: { id: string; name: string; email: string | null } | null;
  /** Earlier actions of this run by name. */
  actions: Record<string, ActionState>;
  /** The webhook request that started the run: method, url, params (the query), headers, content and json. */
  request?: PlaybookWebhookRequest;
  /** `spec.env` as rendered when the run was picked up; an exec action's own env entries win over it for that action. */
  env?: Record<string, string>;
  /** What catalog_traverse answers from in this run's templates; left out where no run reads the catalog. */
  traversal?: CatalogTraversal;
}

/** What a runner gets besides its rendered action. */
export interface ActionRunContext {
  pool: pg.Pool;
  /** The key that opens sealed connection secrets. */
  secretKey: Buffer;
  runId: string;
  actionId: string;
  /** Aborted on timeout or cancel; the runner stops its work (kills the process group, aborts the request, the query). */
  signal: AbortSignal;
  timeoutMs: number;
  /** The run's parameters, handed to an exec script as environment variables. */
  params: Record<string, string>;
  target: PlaybookTarget | null;
}

export interface ActionOutcome {
  status: 'completed' | 'failed';
  result: PlaybookActionResult;
  error?: string;
  /** Files an exec action kept (`exec.artifacts`), stored with the action's row. */
  artifacts?: CollectedArtifact[];
}

/** A name and value with the value opened (exec env, http headers). */
export interface OpenedNameValue {
  name: string;
  value: string;
}

/**
 * An action as a runner gets it: templated, and every sealed value opened for the playbook and the destination the
 * rendered action talks to (playbook-secrets.ts openPlaybookAction), so no runner ever meets an envelope.
 */
export type OpenedPlaybookAction = Omit<PlaybookAction, 'exec' | 'http' | 'notification'> & {
  exec?: Omit<ExecAction, 'env'> & { env?: OpenedNameValue[] };
  http?: Omit<HttpAction, 'headers' | 'body'> & { headers?: OpenedNameValue[]; body?: string };
  notification?: Omit<NotificationAction, 'properties'> & { properties?: Record<string, string> };
};

/** One action type; `action` holds that type's block already templated (templating.ts renderAction) and opened. */
export type ActionRunner = (action: OpenedPlaybookAction, context: ActionRunContext) => Promise<ActionOutcome>;
