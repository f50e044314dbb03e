import { PLAYBOOK_ACTION_TYPES, type PlaybookAction, type PlaybookSpec } from '@opsdeck/shared';

function actionKind(action: PlaybookAction): string {
  return PLAYBOOK_ACTION_TYPES.find((type) => action[type] !== undefined) ?? 'unknown';
}

function targetsOf(spec: PlaybookSpec): string[] {
  const described: string[] = [];
  const add = (label: string, selectors: PlaybookSpec['configs']) => {
    for (const selector of selectors ?? []) {
      const parts = [selector.types?.join(', '), selector.name && `name ${selector.name}`, selector.tagSelector ?? selector.labelSelector].filter(Boolean);
      described.push(parts.length === 0 ? `Any ${label.toLowerCase()}` : `${label}: ${parts.join('; ')}`);
    }
  };
  add('Catalog item', spec.configs);
  add('Component', spec.components);
  add('Check', spec.checks);
  return described;
}

const EVENT_SUBJECTS = { canary: 'Check', component: 'Component' } as const;

interface Starter {
  text: string;
  /** An address to call, shown as code. */
  address?: string;
}

/** What starts the playbook by itself: events, and the webhook with the schemes its requests must pass. */
function startersOf(spec: PlaybookSpec): Starter[] {
  const starters: Starter[] = [];
  for (const kind of ['canary', 'component'] as const) {
    for (const trigger of spec.on?.[kind] ?? []) starters.push({ text: `${EVENT_SUBJECTS[kind]} ${trigger.event}${trigger.filter === undefined ? '' : ` where ${trigger.filter}`}` });
  }
  const webhook = spec.on?.webhook;
  if (webhook !== undefined) {
    starters.push({ text: `webhook (${Object.keys(webhook.authentication).join(', ')}):`, address: `POST /api/playbook/webhook/${webhook.path}` });
  }
  return starters;
}

/** Where a playbook runs, what it asks and what it does, read from its spec. */
export function PlaybookSummary({ spec }: { spec: PlaybookSpec }) {
  const targets = targetsOf(spec);
  const starters = startersOf(spec);
  const parameters = spec.parameters ?? [];
  const actions = spec.actions ?? [];
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <section aria-labelledby="playbook-targets" className="flex flex-col gap-1">
        <h2 id="playbook-targets" className="text-sm font-semibold text-gray-900">
          Runs on
        </h2>
        {targets.length === 0 ? (
          <p className="text-sm text-gray-500">No resource: runs on its own</p>
        ) : (
          <ul className="text-sm text-gray-700">
            {targets.map((target, index) => (
              <li key={`${index}-${target}`}>{target}</li>
            ))}
          </ul>
        )}
        {starters.length > 0 && (
          <ul aria-label="Started by" className="text-sm text-gray-700">
            {starters.map((starter) => (
              <li key={`${starter.text}${starter.address ?? ''}`}>
                Started by {starter.text}
                {starter.address !== undefined && (
                  <>
                    {' '}
                    <code className="break-all rounded bg-gray-100 px-1 text-xs">{starter.address}</code>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        {spec.approval && <p className="text-sm text-amber-700">Needs approval before it runs</p>}
      </section>
      <section aria-labelledby="playbook-parameters" className="flex flex-col gap-1">
        <h2 id="playbook-parameters" className="text-sm font-semibold text-gray-900">
          Parameters
        </h2>
        {parameters.length === 0 ? (
          <p className="text-sm text-gray-500">No parameters</p>
        ) : (
          <ul className="text-sm text-gray-700">
            {parameters.map((parameter) => (
              <li key={parameter.name}>
                <span className="font-medium">{parameter.label ?? parameter.name}</span>{' '}
                <span className="text-gray-500">
                  ({parameter.type}
                  {parameter.required ? ', required' : ''})
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="playbook-actions" className="flex flex-col gap-1">
        <h2 id="playbook-actions" className="text-sm font-semibold text-gray-900">
          Actions
        </h2>
        {actions.length === 0 ? (
          <p className="text-sm text-gray-500">No actions</p>
        ) : (
          <ol className="list-inside list-decimal text-sm text-gray-700">
            {actions.map((action, index) => (
              <li key={`${action.name}-${index}`}>
                <span className="font-medium">{action.name}</span> <span className="text-gray-500">({actionKind(action)})</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
