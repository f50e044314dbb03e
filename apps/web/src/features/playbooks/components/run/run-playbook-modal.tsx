import { useId, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { parameterMessage, type PlaybookParameter, type PlaybookSpec, type PlaybookTargetType } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { QueryError } from '@/components/status/query-error';
import { isApiError, messageFromBody } from '@/lib/api/api-error';
import { showErrorToast } from '@/lib/api/guarded-fetch';
import { playbookRunPath, type PlaybookRunTargetRef } from '@/lib/playbook-run/playbook-run-slot';
import { usePlaybookParamsQuery } from '../../api/get-playbook-params';
import { usePlaybookPreflightQuery, type PreflightNeed } from '../../api/get-playbook-preflight';
import { useRunPlaybookMutation } from '../../api/run-playbook';
import { selectorTypes } from '../../api/search-playbook-resources';
import { PlaybookParamsForm, initialParameterValue } from './playbook-params-form';
import { ResourcePicker } from './resource-picker';

export const SELECT_RESOURCE_MESSAGE = 'Please select a resource to see the parameters.';
export const NO_PARAMETERS_MESSAGE = 'No parameters for this playbook.';
export const RUN_FAILED_MESSAGE = 'Unable to run the playbook';

/** The picker's label for each kind of target (spec 001 §2.4). */
export const TARGET_LABELS: Record<PlaybookTargetType, string> = { config: 'Catalog Item', component: 'Component', check: 'Check' };

export interface RunnablePlaybookRef {
  id: string;
  name: string;
  title: string | null;
  spec: PlaybookSpec;
}

export interface RunPlaybookModalProps {
  playbook: RunnablePlaybookRef;
  /** The item the modal was opened from: preselected and fixed. */
  target?: PlaybookRunTargetRef;
  onClose: () => void;
}

/** The kinds of resources a playbook's spec targets, in the order the picker offers them. */
export function targetTypesOf(spec: PlaybookSpec): PlaybookTargetType[] {
  const types: PlaybookTargetType[] = [];
  if ((spec.configs ?? []).length > 0) types.push('config');
  if ((spec.components ?? []).length > 0) types.push('component');
  if ((spec.checks ?? []).length > 0) types.push('check');
  return types;
}

function selectorsOf(spec: PlaybookSpec, type: PlaybookTargetType) {
  if (type === 'config') return spec.configs;
  return type === 'component' ? spec.components : spec.checks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The per-parameter messages of an OD_PLAYBOOK_PARAMS refusal; its details hold them as an object or its JSON text. */
export function parameterErrorsOf(error: unknown): Record<string, string> {
  if (!isApiError(error) || error.code !== 'OD_PLAYBOOK_PARAMS' || !isRecord(error.body)) return {};
  let details: unknown = error.body.details;
  if (typeof details === 'string') {
    try {
      details = JSON.parse(details) as unknown;
    } catch {
      return {};
    }
  }
  if (!isRecord(details)) return {};
  return Object.fromEntries(Object.entries(details).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function ParametersSection({
  parameters,
  values,
  onChange,
  errors,
  onBlur,
  disabled,
}: {
  parameters: PlaybookParameter[];
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
  errors: Record<string, string>;
  onBlur: (name: string) => void;
  disabled: boolean;
}) {
  if (parameters.length === 0) return <p className="text-sm text-gray-500">{NO_PARAMETERS_MESSAGE}</p>;
  return <PlaybookParamsForm parameters={parameters} values={values} onChange={onChange} onBlur={onBlur} errors={errors} disabled={disabled} />;
}

/**
 * What the host lacks for this playbook, said before the run rather than after (#34): the run may still be started,
 * as the need can be met by the time an approval comes through, or the action may not be reached.
 */
export function PreflightNotice({ needs }: { needs: readonly PreflightNeed[] }) {
  const unmet = needs.filter((need) => !need.met);
  if (unmet.length === 0) return null;
  return (
    <div role="note" aria-label="Before you run" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="font-medium">Before you run: this playbook is likely to fail on this server</p>
      <ul className="mt-1 list-disc pl-5">
        {unmet.map((need) => (
          <li key={`${need.action}:${need.message}`}>
            {need.message} <span className="text-amber-800">(action {need.action})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Run Playbook (spec 001 §2.4, §4, §5): pick the resource the playbook runs on, fill its parameters (defaults resolved
 * for that resource), run, and land on the run's page. Run stays disabled until the form is valid.
 */
export function RunPlaybookModal({ playbook, target, onClose }: RunPlaybookModalProps) {
  const navigate = useNavigate();
  const formId = useId();
  const offered = targetTypesOf(playbook.spec);
  const [targetType, setTargetType] = useState<PlaybookTargetType | null>(target?.type ?? offered[0] ?? null);
  const [targetId, setTargetId] = useState<string | null>(target?.id ?? null);
  const [edited, setEdited] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const chosenTarget = targetType !== null && targetId !== null ? { type: targetType, id: targetId } : null;
  const needsTarget = targetType !== null;
  const specParameters = playbook.spec.parameters ?? [];
  const paramsEnabled = specParameters.length > 0 && (!needsTarget || chosenTarget !== null);
  const params = usePlaybookParamsQuery(playbook.id, chosenTarget, paramsEnabled);
  const run = useRunPlaybookMutation();
  const preflight = usePlaybookPreflightQuery(playbook.id);

  const parameters = useMemo(() => (specParameters.length === 0 ? [] : (params.data ?? [])), [specParameters.length, params.data]);
  const values = useMemo(
    () => Object.fromEntries(parameters.map((parameter) => [parameter.name, edited[parameter.name] ?? initialParameterValue(parameter)])),
    [parameters, edited],
  );
  const messages = useMemo(() => {
    const found: Record<string, string> = {};
    for (const parameter of parameters) {
      const message = parameterMessage(parameter, values[parameter.name] ?? '');
      if (message !== null) found[parameter.name] = message;
    }
    return found;
  }, [parameters, values]);
  const shownErrors = useMemo(() => {
    const shown: Record<string, string> = { ...serverErrors };
    for (const [name, message] of Object.entries(messages)) if (touched.has(name)) shown[name] = message;
    return shown;
  }, [messages, serverErrors, touched]);

  const paramsReady = specParameters.length === 0 ? !needsTarget || chosenTarget !== null : params.isSuccess;
  const canRun = playbook.id !== '' && paramsReady && Object.keys(messages).length === 0 && !run.isPending;

  const handleTarget = (type: PlaybookTargetType | null, id: string | null) => {
    setTargetType(type);
    setTargetId(id);
    setEdited({});
    setTouched(new Set());
    setServerErrors({});
  };

  const handleChange = (name: string, value: string) => {
    setEdited((current) => ({ ...current, [name]: value }));
    setServerErrors((current) => (name in current ? Object.fromEntries(Object.entries(current).filter(([key]) => key !== name)) : current));
  };

  const handleBlur = (name: string) => setTouched((current) => (current.has(name) ? current : new Set([...current, name])));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canRun) return;
    const sent = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
    run.mutate(
      { id: playbook.id, ...(chosenTarget === null ? {} : { [`${chosenTarget.type}_id`]: chosenTarget.id }), params: sent },
      {
        onSuccess: ({ run_id }) => {
          onClose();
          void navigate(playbookRunPath(run_id));
        },
        onError: (error) => {
          setServerErrors(parameterErrorsOf(error));
          showErrorToast((isApiError(error) ? messageFromBody(error.body) : null) ?? RUN_FAILED_MESSAGE);
        },
      },
    );
  };

  const pickerId = `${formId}-target`;
  const typeId = `${formId}-target-type`;
  let parametersBody;
  if (needsTarget && chosenTarget === null) parametersBody = <p className="text-sm text-gray-500">{SELECT_RESOURCE_MESSAGE}</p>;
  else if (specParameters.length === 0) parametersBody = <p className="text-sm text-gray-500">{NO_PARAMETERS_MESSAGE}</p>;
  else if (params.isError) parametersBody = <QueryError subject="Parameters" error={params.error} onRetry={() => void params.refetch()} />;
  else if (params.isPending) {
    parametersBody = (
      <p role="status" className="text-sm text-gray-500">
        Loading parameters…
      </p>
    );
  } else {
    parametersBody = <ParametersSection parameters={parameters} values={values} onChange={handleChange} onBlur={handleBlur} errors={shownErrors} disabled={run.isPending} />;
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Run Playbook: ${playbook.title ?? playbook.name}`}
      size="medium"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={run.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={!canRun}>
            {run.isPending ? 'Running...' : 'Run'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate aria-label="Run playbook" onSubmit={handleSubmit} className="flex flex-col gap-4">
        <PreflightNotice needs={preflight.data ?? []} />
        {targetType !== null && (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            {target === undefined && offered.length > 1 && (
              <div className="flex flex-col gap-1">
                <label htmlFor={typeId} className="text-sm font-medium text-gray-800">
                  Resource type
                </label>
                <Dropdown
                  id={typeId}
                  options={offered.map((type) => ({ value: type, label: TARGET_LABELS[type] }))}
                  value={targetType}
                  onChange={(type) => handleTarget(type, null)}
                />
              </div>
            )}
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <label htmlFor={pickerId} className="text-sm font-medium text-gray-800">
                {TARGET_LABELS[targetType]}
                <span aria-hidden="true" className="ml-0.5 text-red-600">
                  *
                </span>
              </label>
              <ResourcePicker
                id={pickerId}
                kind={targetType}
                types={selectorTypes(selectorsOf(playbook.spec, targetType))}
                targetOf={playbook.id}
                value={targetId}
                onChange={(id) => handleTarget(targetType, id)}
                disabled={target !== undefined || run.isPending}
                required
              />
            </div>
          </div>
        )}
        <section aria-labelledby={`${formId}-params`} className="flex flex-col gap-2">
          <h3 id={`${formId}-params`} className="text-sm font-semibold text-gray-900">
            Playbook Parameters
          </h3>
          {parametersBody}
        </section>
      </form>
    </Dialog>
  );
}
