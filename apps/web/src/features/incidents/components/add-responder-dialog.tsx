import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { clsx } from 'clsx';
import { z } from 'zod';
import {
  INCIDENT_MESSAGES,
  RESPONDER_REQUIRED_FIELDS,
  RESPONDER_TYPES,
  isResponderType,
  validateResponderProperties,
  type ResponderType,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { inputClass } from '@/components/forms/styles';
import { useSession } from '@/lib/auth/session';
import { useCreateResponder } from '../api/create-responder';
import { usePeopleQuery } from '../api/get-people';
import { useTeamsQuery } from '../api/get-teams';
import type { ResponderClientSettings, TeamWithSpec } from '../api/types';

type Step = 'select' | 'type' | 'save';
type Kind = 'team' | 'person';

const STEP_TITLES: Record<Step, string> = { select: 'Select Responder', type: 'Responder Type', save: 'Save Team Responder' };

const TYPE_LABELS: Record<ResponderType, string> = {
  email: 'Email',
  jira: 'Jira',
  service_now: 'ServiceNow',
  ca: 'CA',
  redhat: 'Red Hat',
  aws_support: 'AWS Support',
  aws_ams_services_request: 'AWS AMS Service Request',
  vmware: 'VMware',
  oracle: 'Oracle',
  ms_planner: 'Microsoft Planner',
  person: 'Person',
};

const LONG_FIELDS: ReadonlySet<string> = new Set(['body', 'description']);

/** 'issueType' → 'Issue Type', 'plan_id' → 'Plan Id'. */
function fieldLabel(field: string): string {
  return field
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** The responder clients a team has configured, in the order of the known types. */
export function configuredResponderTypes(team: TeamWithSpec | undefined): ResponderType[] {
  const clients = team?.spec?.responder_clients ?? {};
  return Object.keys(clients).filter((type): type is ResponderType => isResponderType(type) && type !== 'person' && clients[type] !== null);
}

/** Initial field values from the team's settings for that client: its `defaults`, else same-named string values. */
function defaultsFor(settings: ResponderClientSettings | null | undefined, type: ResponderType): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of RESPONDER_REQUIRED_FIELDS[type]) {
    const fromDefaults = settings?.defaults?.[field];
    const direct = settings?.[field];
    const fallback = field === 'instance' ? settings?.connection : undefined;
    const value = [fromDefaults, direct, fallback].find((candidate): candidate is string => typeof candidate === 'string');
    values[field] = value ?? '';
  }
  return values;
}

/** Every field the chosen responder type requires, with the shared rule and message the database also applies. */
const schema = z
  .object({
    teamId: z.string().optional(),
    personId: z.string().optional(),
    responderType: z.enum(RESPONDER_TYPES).nullable(),
    fields: z.record(z.string(), z.string()),
  })
  .superRefine((values, context) => {
    if (values.responderType === null) return;
    for (const [field, message] of Object.entries(validateResponderProperties(values.responderType, values.fields))) {
      context.addIssue({ code: 'custom', path: ['fields', field], message });
    }
  });
type ResponderValues = z.infer<typeof schema>;

export interface AddResponderDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  incidentId: string;
}

/** The add-responder wizard: a person is added at once; a team goes on to its responder type and that type's fields. */
export function AddResponderDialog({ open, onOpenChange, incidentId }: AddResponderDialogProps) {
  const session = useSession();
  const teams = useTeamsQuery(open);
  const people = usePeopleQuery();
  const createResponder = useCreateResponder();
  const [step, setStep] = useState<Step>('select');
  const [kind, setKind] = useState<Kind>('team');
  // Problems show from Save to the next Save, as the database's own message would.
  const { control, register, handleSubmit, setValue, getValues, reset, formState } = useForm<ResponderValues>({
    resolver: zodResolver(schema),
    reValidateMode: 'onSubmit',
    defaultValues: { teamId: undefined, personId: undefined, responderType: null, fields: {} },
  });
  const [teamId, personId, responderType] = useWatch({ control, name: ['teamId', 'personId', 'responderType'] });
  const problems = formState.errors.fields ?? {};

  const team = teams.data?.find((candidate) => candidate.id === teamId);
  const types = configuredResponderTypes(team);
  const createdBy = session.data?.person.id ?? null;
  const close = { onSettled: () => onOpenChange(false) };

  const handleAddPerson = () => {
    if (personId === undefined) return;
    createResponder.mutate({ incidentId, type: 'person', personId, teamId: null, createdBy, properties: { responderType: 'person' } }, close);
  };

  const chooseType = (type: ResponderType) => {
    reset({ ...getValues(), responderType: type, fields: defaultsFor(team?.spec?.responder_clients?.[type], type) });
  };

  const handleSave = handleSubmit((values) => {
    if (values.responderType === null || values.teamId === undefined) return;
    const trimmed = Object.fromEntries(Object.entries(values.fields).map(([key, value]) => [key, value.trim()]));
    createResponder.mutate(
      { incidentId, type: 'system', teamId: values.teamId, personId: null, createdBy, properties: { responderType: values.responderType, ...trimmed } },
      close,
    );
  });

  const back = () => setStep(step === 'save' ? 'type' : 'select');

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Add Responder: ${STEP_TITLES[step]}`}
      size="small"
      footer={
        <>
          {step !== 'select' && (
            <Button variant="secondary" className="mr-auto" onClick={back} disabled={createResponder.isPending}>
              Back
            </Button>
          )}
          {step === 'select' && kind === 'person' && (
            <Button onClick={handleAddPerson} disabled={personId === undefined} isPending={createResponder.isPending}>
              Save
            </Button>
          )}
          {step === 'select' && kind === 'team' && (
            <Button onClick={() => setStep('type')} disabled={teamId === undefined}>
              Next
            </Button>
          )}
          {step === 'type' && (
            <Button onClick={() => setStep('save')} disabled={responderType === null}>
              Next
            </Button>
          )}
          {step === 'save' && (
            <Button type="submit" form="responder-form" isPending={createResponder.isPending}>
              Save
            </Button>
          )}
        </>
      }
    >
      {step === 'select' && (
        <div className="flex flex-col gap-3">
          <div role="radiogroup" aria-label="Responder kind" className="inline-flex self-start rounded-md ring-1 ring-gray-300">
            {(['team', 'person'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={kind === value}
                onClick={() => setKind(value)}
                className={clsx('px-3 py-1 text-sm first:rounded-l-md last:rounded-r-md', kind === value ? 'bg-blue-600 text-white' : 'bg-white text-gray-700')}
              >
                {value === 'team' ? 'Team' : 'Person'}
              </button>
            ))}
          </div>
          {kind === 'team' ? (
            <Dropdown
              label="Team"
              placeholder={teams.isPending ? 'Loading teams…' : 'Select a team'}
              options={(teams.data ?? []).map((candidate) => ({ value: candidate.id, label: candidate.name }))}
              value={teamId}
              onChange={(id) => {
                setValue('teamId', id);
                setValue('responderType', null);
              }}
              className="w-full"
            />
          ) : (
            <Dropdown
              label="Person"
              placeholder={people.isPending ? 'Loading people…' : 'Select a person'}
              options={(people.data ?? []).map((person) => ({ value: person.id, label: person.name }))}
              value={personId}
              onChange={(id) => setValue('personId', id)}
              className="w-full"
            />
          )}
        </div>
      )}
      {step === 'type' &&
        (types.length === 0 ? (
          <p className="text-sm text-gray-600">
            {team?.unreadable === undefined ? INCIDENT_MESSAGES.noTeamResponders : `The responder settings of ${team.name} could not be read: ${team.unreadable}`}
          </p>
        ) : (
          <fieldset className="flex flex-col gap-0.5">
            <legend className="mb-1 text-sm text-gray-700">How should {team?.name} be reached?</legend>
            {types.map((type) => (
              <label key={type} className={clsx('flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50', responderType === type && 'bg-blue-50')}>
                <input type="radio" name="responder-type" checked={responderType === type} onChange={() => chooseType(type)} />
                {TYPE_LABELS[type]}
              </label>
            ))}
          </fieldset>
        ))}
      {step === 'save' && responderType !== null && (
        <form id="responder-form" noValidate onSubmit={(event) => void handleSave(event)} className="flex flex-col gap-3">
          {RESPONDER_REQUIRED_FIELDS[responderType].length === 0 && (
            <p className="text-sm text-gray-600">{TYPE_LABELS[responderType]} needs no further details.</p>
          )}
          {RESPONDER_REQUIRED_FIELDS[responderType].map((field) => {
            const id = `responder-${field}`;
            const problem = problems[field]?.message;
            const common = {
              id,
              ...register(`fields.${field}`),
              'aria-required': true,
              'aria-invalid': problem ? true : undefined,
              'aria-describedby': problem ? `${id}-error` : undefined,
              className: inputClass(Boolean(problem)),
            };
            return (
              <div key={field} className="flex flex-col gap-1">
                <label htmlFor={id} className="text-sm font-medium text-gray-800">
                  {fieldLabel(field)}
                  <span aria-hidden="true" className="ml-0.5 text-red-600">
                    *
                  </span>
                </label>
                {LONG_FIELDS.has(field) ? (
                  <textarea rows={3} {...common} />
                ) : (
                  <input {...common} />
                )}
                {problem && (
                  <p id={`${id}-error`} role="alert" className="text-xs text-red-600">
                    {problem}
                  </p>
                )}
              </div>
            );
          })}
        </form>
      )}
    </Dialog>
  );
}
