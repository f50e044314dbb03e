import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { clsx } from 'clsx';
import {
  DEFINITION_OF_DONE_DEFAULT_SCRIPTS,
  DEFINITION_OF_DONE_SHORTCUTS,
  INCIDENT_MESSAGES,
  isAutomaticDefinitionOfDoneType,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { inputClass } from '@/components/forms/styles';
import { errorMessage } from '@/components/toast/toast';
import { useSession } from '@/lib/auth/session';
import { useCreateEvidence } from '../api/create-evidence';
import { useUpdateEvidence } from '../api/update-evidence';
import { validateDefinitionOfDoneScript } from '../api/validate-definition-of-done';
import type { Evidence, IncidentDetail, StoredEvidenceType } from '../api/types';
import { evidenceTitle, evidenceTypeLabel } from './evidence-label';
import { allEvidence } from './incident-status-control';

type Mode = 'automatic' | 'manual';
type AutomaticStep = 'evidence' | 'script';

/** Suggested scripts: a check healthy for over five minutes, an analysis resolved (spec 000 §2). */
const SUGGESTED_TYPES: readonly StoredEvidenceType[] = ['check', 'config_analysis'];

function suggestedScript(type: StoredEvidenceType): string {
  return SUGGESTED_TYPES.includes(type) && isAutomaticDefinitionOfDoneType(type) ? DEFINITION_OF_DONE_DEFAULT_SCRIPTS[type] : '';
}

interface DefinitionOfDoneValues {
  manualText: string;
  script: string;
}

export interface DefinitionOfDoneDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  incident: IncidentDetail;
}

/** Adds to the definition of done: a manual item (a comment) or existing evidence with an optional CEL script. */
export function DefinitionOfDoneDialog({ open, onOpenChange, incident }: DefinitionOfDoneDialogProps) {
  const session = useSession();
  const createEvidence = useCreateEvidence();
  const updateEvidence = useUpdateEvidence();
  const [mode, setMode] = useState<Mode>('automatic');
  const [step, setStep] = useState<AutomaticStep>('evidence');
  const [typeFilter, setTypeFilter] = useState<StoredEvidenceType | undefined>(undefined);
  const [chosen, setChosen] = useState<Evidence | null>(null);
  const { control, register, setValue, getValues } = useForm<DefinitionOfDoneValues>({ defaultValues: { manualText: '', script: '' } });
  const manualText = useWatch({ control, name: 'manualText' });
  // The server's verdict on the script, with the details it gives; it stands until the script is edited.
  const [scriptProblem, setScriptProblem] = useState<{ message: string; details: string | null } | null>(null);
  const [isValidating, setIsValidating] = useState(false);

  const evidence = allEvidence(incident);
  const candidates = evidence.filter((item) => !item.definition_of_done);
  const types = [...new Set(candidates.map((item) => item.type))];
  const shown = typeFilter === undefined ? candidates : candidates.filter((item) => item.type === typeFilter);
  const root = incident.hypotheses.find((hypothesis) => hypothesis.type === 'root') ?? incident.hypotheses[0];
  const isBusy = createEvidence.isPending || updateEvidence.isPending || isValidating;

  const handleManualAdd = () => {
    const text = manualText.trim();
    if (text === '' || root === undefined) return;
    createEvidence.mutate(
      {
        hypothesisId: root.id,
        type: 'comment',
        description: text,
        evidence: { comment: text },
        definitionOfDone: true,
        createdBy: session.data?.person.id ?? null,
      },
      { onSuccess: () => onOpenChange(false) },
    );
  };

  const handleChoose = (item: Evidence) => {
    setChosen(item);
    setValue('script', suggestedScript(item.type));
    setScriptProblem(null);
  };

  const handleAutomaticAdd = async () => {
    if (chosen === null) return;
    const text = getValues('script').trim();
    if (text !== '') {
      setIsValidating(true);
      try {
        const outcome = await validateDefinitionOfDoneScript(text, chosen.type);
        if (!outcome.valid) {
          setScriptProblem({ message: outcome.message, details: outcome.details });
          return;
        }
      } catch (error) {
        setScriptProblem({ message: errorMessage(error), details: null });
        return;
      } finally {
        setIsValidating(false);
      }
    }
    updateEvidence.mutate({ ids: [chosen.id], changes: { definition_of_done: true, script: text === '' ? null : text } }, { onSuccess: () => onOpenChange(false) });
  };

  const usesScript = chosen !== null && isAutomaticDefinitionOfDoneType(chosen.type);
  const shortcuts = chosen !== null && isAutomaticDefinitionOfDoneType(chosen.type) ? (DEFINITION_OF_DONE_SHORTCUTS[chosen.type] ?? []) : [];

  const footer =
    mode === 'manual' ? (
      <Button onClick={handleManualAdd} disabled={manualText.trim() === '' || createEvidence.isPending} isPending={createEvidence.isPending}>
        Add
      </Button>
    ) : (
      <>
        {step === 'script' && (
          <Button variant="secondary" className="mr-auto" onClick={() => setStep('evidence')} disabled={isBusy}>
            Back
          </Button>
        )}
        {step === 'evidence' && usesScript ? (
          <Button onClick={() => setStep('script')} disabled={chosen === null}>
            Next
          </Button>
        ) : (
          <Button onClick={() => void handleAutomaticAdd()} disabled={chosen === null} isPending={isBusy}>
            Add
          </Button>
        )}
      </>
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Add to definition of done" size="medium" footer={footer}>
      <div role="radiogroup" aria-label="Kind" className="mb-3 inline-flex rounded-md ring-1 ring-gray-300">
        {(['automatic', 'manual'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={mode === value}
            onClick={() => setMode(value)}
            className={clsx('px-3 py-1 text-sm first:rounded-l-md last:rounded-r-md', mode === value ? 'bg-blue-600 text-white' : 'bg-white text-gray-700')}
          >
            {value === 'automatic' ? 'Automatic' : 'Manual'}
          </button>
        ))}
      </div>
      {mode === 'manual' && (
        <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
          What must be true for the incident to be done?
          <textarea rows={3} {...register('manualText')} className={inputClass(false)} />
        </label>
      )}
      {mode === 'automatic' && step === 'evidence' && (
        <div className="flex flex-col gap-2">
          {candidates.length === 0 ? (
            <p className="text-sm text-gray-600">{evidence.length === 0 ? INCIDENT_MESSAGES.noEvidence : INCIDENT_MESSAGES.noEvidenceOutsideDefinitionOfDone}</p>
          ) : (
            <>
              <Dropdown
                label="Evidence type"
                placeholder="All evidence types"
                options={types.map((type) => ({ value: type, label: evidenceTypeLabel(type) }))}
                value={typeFilter}
                onChange={setTypeFilter}
                className="self-start"
              />
              <fieldset className="flex max-h-64 flex-col gap-0.5 overflow-auto">
                <legend className="sr-only">Evidence</legend>
                {shown.map((item) => (
                  <label key={item.id} className={clsx('flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50', chosen?.id === item.id && 'bg-blue-50')}>
                    <input type="radio" name="definition-of-done-evidence" checked={chosen?.id === item.id} onChange={() => handleChoose(item)} />
                    <span className="rounded bg-gray-100 px-1 text-xs text-gray-600">{evidenceTypeLabel(item.type)}</span>
                    <span className="truncate">{evidenceTitle(item)}</span>
                  </label>
                ))}
              </fieldset>
            </>
          )}
        </div>
      )}
      {mode === 'automatic' && step === 'script' && chosen !== null && (
        <div className="flex flex-col gap-2">
          {shortcuts.length > 0 && (
            <div className="flex flex-wrap gap-1.5">
              {shortcuts.map((shortcut) => (
                <Button key={shortcut.label} variant="secondary" className="text-xs" onClick={() => setValue('script', shortcut.script)}>
                  {shortcut.label}
                </Button>
              ))}
            </div>
          )}
          <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
            Script (CEL, optional)
            <textarea
              rows={3}
              {...register('script', { onChange: () => setScriptProblem(null) })}
              aria-invalid={scriptProblem !== null || undefined}
              aria-describedby={scriptProblem !== null ? 'definition-of-done-script-error' : undefined}
              className={inputClass(scriptProblem !== null, 'font-mono text-xs')}
            />
          </label>
          {scriptProblem !== null && (
            <div id="definition-of-done-script-error" role="alert" className="text-xs text-red-600">
              <p>{scriptProblem.message}</p>
              {scriptProblem.details !== null && <pre className="mt-1 overflow-auto font-mono">{scriptProblem.details}</pre>}
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
