import { useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { clsx } from 'clsx';
import { DEBOUNCE_MS, EVIDENCE_TYPES, logEvidenceLineIndexes, type EvidenceType } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { SearchInput } from '@/components/filters/search-input';
import { inputClass } from '@/components/forms/styles';
import { HealthDot } from '@/components/status/health-dot';
import { QueryError } from '@/components/status/query-error';
import { useSession } from '@/lib/auth/session';
import { useCreateEvidence, type NewEvidenceInput } from '../api/create-evidence';
import { useConfigFindingsQuery, type FindingKind } from '../api/get-config-findings';
import { useResourceSearchQuery, type ResourceHit, type SearchableKind } from '../api/search-resources';
import { evidenceTypeLabel } from './evidence-label';

export interface AddEvidenceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hypothesisId: string;
}

type Step = 'type' | 'search' | 'select';

const STEP_TITLES: Record<Step, string> = { type: 'Evidence type', search: 'Search', select: 'Select' };

const SEARCH_KIND: Partial<Record<EvidenceType, SearchableKind>> = {
  check: 'checks',
  topology: 'components',
  config: 'configs',
  config_analysis: 'configs',
  config_change: 'configs',
};

function isFinding(type: EvidenceType | null): type is FindingKind {
  return type === 'config_analysis' || type === 'config_change';
}

interface Choice {
  id: string;
  label: string;
}

interface EvidenceValues {
  /** The comment, or the pasted log lines. */
  text: string;
  description: string;
}

/** A radio list of search hits or findings; arrow keys move within it as in any radio group. */
function ChoiceList({ name, label, items, value, onChange, renderExtra }: {
  name: string;
  label: string;
  items: readonly Choice[];
  value: string | null;
  onChange: (id: string) => void;
  renderExtra?: (id: string) => ReactNode;
}) {
  return (
    <fieldset className="flex max-h-64 flex-col gap-0.5 overflow-auto">
      <legend className="sr-only">{label}</legend>
      {items.map((item) => (
        <label key={item.id} className={clsx('flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50', value === item.id && 'bg-blue-50')}>
          <input type="radio" name={name} checked={value === item.id} onChange={() => onChange(item.id)} />
          {renderExtra?.(item.id)}
          <span className="truncate">{item.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** The add-evidence wizard: evidence type, search, select. */
export function AddEvidenceDialog({ open, onOpenChange, hypothesisId }: AddEvidenceDialogProps) {
  const session = useSession();
  const createEvidence = useCreateEvidence();
  const [step, setStep] = useState<Step>('type');
  const [type, setType] = useState<EvidenceType | null>(null);
  const [search, setSearch] = useState('');
  const [hit, setHit] = useState<ResourceHit | null>(null);
  const [finding, setFinding] = useState<Choice | null>(null);
  const [selectedLines, setSelectedLines] = useState<ReadonlySet<number>>(new Set());
  const { control, register, setValue, getValues } = useForm<EvidenceValues>({ defaultValues: { text: '', description: '' } });
  const text = useWatch({ control, name: 'text' });

  const searchKind = type === null ? null : (SEARCH_KIND[type] ?? null);
  const hits = useResourceSearchQuery(step === 'search' ? searchKind : null, search);
  const findings = useConfigFindingsQuery(isFinding(type) ? type : null, hit?.id ?? null);
  const logLines = text.split('\n');

  const chosenLabel = (): string => {
    if (type === 'comment') return text.trim();
    if (type === 'log') return `${selectedLines.size} selected log line${selectedLines.size === 1 ? '' : 's'}`;
    if (isFinding(type)) return finding?.label ?? '';
    return hit?.name ?? '';
  };

  const canContinue = (): boolean => {
    if (type === 'comment') return text.trim() !== '';
    if (type === 'log') return selectedLines.size > 0;
    if (isFinding(type)) return finding !== null;
    return hit !== null;
  };

  const handleTypeChosen = (next: EvidenceType) => {
    setType(next);
    setHit(null);
    setFinding(null);
    setValue('text', '');
    setSelectedLines(new Set());
  };

  const goToSelect = () => {
    setValue('description', chosenLabel());
    setStep('select');
  };

  const toggleLine = (index: number) => {
    setSelectedLines((previous) => {
      const next = new Set(previous);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  };

  const buildInput = (): NewEvidenceInput | null => {
    if (type === null) return null;
    const base = { hypothesisId, type, description: getValues('description').trim(), createdBy: session.data?.person.id ?? null };
    switch (type) {
      case 'comment':
        return { ...base, evidence: { comment: text.trim() } };
      case 'log': {
        // Only the selected lines and three lines of context either side are kept.
        const kept = logEvidenceLineIndexes(logLines.length, [...selectedLines]);
        return {
          ...base,
          evidence: {
            lines: kept.map((index) => logLines[index] ?? ''),
            selected_lines: kept.flatMap((index, position) => (selectedLines.has(index) ? [position] : [])),
          },
        };
      }
      case 'check':
        return hit ? { ...base, checkId: hit.id } : null;
      case 'topology':
        return hit ? { ...base, componentId: hit.id } : null;
      case 'config':
        return hit ? { ...base, configId: hit.id, evidence: { configName: hit.name } } : null;
      case 'config_analysis':
        return hit && finding ? { ...base, configId: hit.id, configAnalysisId: finding.id } : null;
      case 'config_change':
        return hit && finding ? { ...base, configId: hit.id, configChangeId: finding.id } : null;
    }
  };

  const handleAdd = () => {
    const input = buildInput();
    if (input === null) return;
    createEvidence.mutate(input, { onSuccess: () => onOpenChange(false) });
  };

  const back = () => setStep(step === 'select' ? 'search' : 'type');

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Add Evidence: ${STEP_TITLES[step]}`}
      size="medium"
      footer={
        <>
          {step !== 'type' && (
            <Button variant="secondary" className="mr-auto" onClick={back} disabled={createEvidence.isPending}>
              Back
            </Button>
          )}
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={createEvidence.isPending}>
            Cancel
          </Button>
          {step === 'type' && (
            <Button disabled={type === null} onClick={() => setStep('search')}>
              Next
            </Button>
          )}
          {step === 'search' && (
            <Button disabled={!canContinue()} onClick={goToSelect}>
              Next
            </Button>
          )}
          {step === 'select' && (
            <Button onClick={handleAdd} isPending={createEvidence.isPending}>
              Add
            </Button>
          )}
        </>
      }
    >
      <ol aria-label="Steps" className="mb-3 flex gap-3 text-xs text-gray-500">
        {(['type', 'search', 'select'] as const).map((name, index) => (
          <li key={name} aria-current={name === step ? 'step' : undefined} className={clsx(name === step && 'font-semibold text-blue-700')}>
            {index + 1}. {STEP_TITLES[name]}
          </li>
        ))}
      </ol>
      {step === 'type' && (
        <ChoiceList
          name="evidence-type"
          label="Evidence type"
          items={EVIDENCE_TYPES.map((value) => ({ id: value, label: evidenceTypeLabel(value) }))}
          value={type}
          onChange={(id) => handleTypeChosen(id as EvidenceType)}
        />
      )}
      {step === 'search' && type === 'comment' && (
        <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
          Comment
          <textarea rows={4} {...register('text')} className={inputClass(false)} />
        </label>
      )}
      {step === 'search' && type === 'log' && (
        <div className="flex flex-col gap-2">
          <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
            Log lines
            <textarea
              rows={5}
              {...register('text', { onChange: () => setSelectedLines(new Set()) })}
              className={inputClass(false, 'font-mono text-xs')}
            />
          </label>
          {text !== '' && (
            <fieldset className="max-h-48 overflow-auto rounded border border-gray-200">
              <legend className="sr-only">Select lines</legend>
              {logLines.map((line, index) => (
                <label key={index} className="flex items-center gap-2 px-2 font-mono text-xs hover:bg-gray-50">
                  <input type="checkbox" checked={selectedLines.has(index)} onChange={() => toggleLine(index)} aria-label={`Line ${index + 1}`} />
                  <span className="truncate">{line}</span>
                </label>
              ))}
            </fieldset>
          )}
        </div>
      )}
      {step === 'search' && searchKind !== null && (
        <div className="flex flex-col gap-2">
          <SearchInput value={search} onChange={setSearch} debounceMs={DEBOUNCE_MS.resourceSearch} placeholder={`Search ${evidenceTypeLabel(type ?? 'config')}`} className="w-full" />
          {hits.isPending && <p className="text-sm text-gray-500">Searching…</p>}
          {hits.isError && <QueryError subject="Matches" error={hits.error} onRetry={() => void hits.refetch()} />}
          {hits.data?.length === 0 && <p className="text-sm text-gray-500">No matches</p>}
          {hits.data && hits.data.length > 0 && (
            <ChoiceList
              name="evidence-item"
              label="Matches"
              items={hits.data.map((row) => ({ id: row.id, label: row.type ? `${row.name} (${row.type})` : row.name }))}
              value={hit?.id ?? null}
              onChange={(id) => {
                setHit(hits.data.find((row) => row.id === id) ?? null);
                setFinding(null);
              }}
              renderExtra={(id) => {
                const row = hits.data.find((candidate) => candidate.id === id);
                return <HealthDot status={row?.status ?? row?.health ?? null} />;
              }}
            />
          )}
          {isFinding(type) && hit !== null && (
            <div className="border-t border-gray-200 pt-2">
              <p className="mb-1 text-sm font-medium text-gray-800">{type === 'config_analysis' ? 'Insights' : 'Changes'} of {hit.name}</p>
              {findings.isPending && <p className="text-sm text-gray-500">Loading…</p>}
              {findings.isError && <QueryError subject={type === 'config_analysis' ? 'Insights' : 'Changes'} error={findings.error} onRetry={() => void findings.refetch()} />}
              {findings.data?.length === 0 && <p className="text-sm text-gray-500">None found</p>}
              {findings.data && findings.data.length > 0 && (
                <ChoiceList
                  name="evidence-finding"
                  label="Findings"
                  items={findings.data}
                  value={finding?.id ?? null}
                  onChange={(id) => setFinding(findings.data.find((row) => row.id === id) ?? null)}
                />
              )}
            </div>
          )}
        </div>
      )}
      {step === 'select' && (
        <div className="flex flex-col gap-3 text-sm">
          <p>
            <span className="font-medium">{evidenceTypeLabel(type ?? 'comment')}:</span> {chosenLabel()}
          </p>
          <label className="flex flex-col gap-1 font-medium text-gray-800">
            Description
            <input {...register('description')} className={inputClass(false)} />
          </label>
        </div>
      )}
    </Dialog>
  );
}
