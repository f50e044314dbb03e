import { useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Tabs } from 'radix-ui';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { schemaCheck, textDiagnostics, type TextDiagnostic } from '@/components/code-editor/text-diagnostics';
import { DETAIL_TAB_CLASS } from '@/components/detail-page/detail-page';
import { TextField } from '@/components/forms/text-field';
import { objectToText, parseObjectText } from '@/lib/object-text/object-text';
import type { ChartDefinition } from '../charts/chart-definition';
import {
  DEFAULT_CHART_INTERVAL,
  DEFAULT_CHART_NAMESPACE,
  fluxManifest,
  helmCommand,
  intervalProblem,
  namespaceProblem,
  releaseNameProblem,
  type ChartInstall,
} from '../helm-install';
import { CopyButton } from '@/components/button/copy-button';

interface InstallFields {
  releaseName: string;
  namespace: string;
  interval: string;
}

/** 'Line 3: …' for a problem at a character offset of the text. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function CodeBlock({ code, copyLabel, label }: { code: string; copyLabel: string; label: string }) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <CopyButton text={code} label={copyLabel} />
      </div>
      <pre aria-label={label} tabIndex={0} className="palette-light max-h-96 overflow-auto rounded-md bg-gray-900 p-3 dark:bg-gray-950 text-xs leading-relaxed text-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500">
        <code>{code}</code>
      </pre>
    </div>
  );
}

function ValuesProblems({ problems, text, chart }: { problems: readonly TextDiagnostic[]; text: string; chart: ChartDefinition }) {
  if (problems.length === 0) {
    return (
      <p role="status" className="flex items-center gap-1.5 text-xs text-green-700">
        <CircleCheck aria-hidden="true" className="size-3.5" />
        The values match the {chart.chart} {chart.version} schema.
      </p>
    );
  }
  return (
    <div role="status" className="rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800">
      <p className="font-medium">
        {problems.length === 1 ? '1 problem' : `${problems.length} problems`} against the {chart.chart} {chart.version} schema:
      </p>
      <ul aria-label="Values problems" className="mt-1 list-disc pl-5">
        {problems.map((problem, index) => (
          <li key={`${index}:${problem.from}:${problem.message}`}>
            Line {lineOf(text, problem.from)}: {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface ChartInstallPanelProps {
  chart: ChartDefinition;
}

/**
 * A GitOps integration: the chart's values, checked against the schema bundled for its version as they are typed, and
 * the Flux manifest and Helm commands that install it with them.
 */
export function ChartInstallPanel({ chart }: ChartInstallPanelProps) {
  const valuesLabelId = useId();
  const { control } = useForm<InstallFields>({
    mode: 'onChange',
    defaultValues: { releaseName: chart.defaultReleaseName, namespace: DEFAULT_CHART_NAMESPACE, interval: DEFAULT_CHART_INTERVAL },
  });
  const [releaseName, namespace, interval] = useWatch({ control, name: ['releaseName', 'namespace', 'interval'] });
  const [text, setText] = useState(() => objectToText(chart.defaultValues));
  // The last text that parsed to an object: what the manifests carry while the editor holds a half-typed line.
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...chart.defaultValues }));
  const check = useMemo(() => schemaCheck(chart.valuesSchema), [chart.valuesSchema]);
  const problems = useMemo(() => textDiagnostics(text, 'yaml', check), [text, check]);

  const handleValuesChange = (next: string) => {
    setText(next);
    const parsed = parseObjectText(next);
    if (parsed !== null) setValues(parsed);
  };

  const install: ChartInstall = { chart, releaseName: releaseName.trim(), namespace: namespace.trim(), interval: interval.trim(), values };
  const fieldProblems = [releaseNameProblem(install.releaseName), namespaceProblem(install.namespace), intervalProblem(install.interval)].filter(
    (problem): problem is string => problem !== null,
  );
  const problemCount = problems.length + fieldProblems.length;
  const outputWarning =
    problemCount === 0 ? null : (
      <p role="alert" className="flex items-start gap-2 rounded-md bg-red-50 p-2 text-xs text-red-800">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        {problemCount === 1 ? 'One problem' : `${problemCount} problems`} in the values or release settings: fix them before applying this.
      </p>
    );

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-gray-600">
        {chart.description}. Chart <span className="font-mono">{chart.chart}</span> version <span className="font-mono">{chart.version}</span> from{' '}
        <span className="font-mono break-all">{chart.repository.url}</span>; the values are checked against the schema of that version, which ships
        with this console.
      </p>
      <p role="note" className="flex items-start gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        The chart must be installed in Flux: Flux must be running in the cluster for the HelmRelease to apply.
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField control={control} name="releaseName" label="Release name" required validate={(value) => releaseNameProblem(value.trim())} />
        <TextField control={control} name="namespace" label="Namespace" required validate={(value) => namespaceProblem(value.trim())} />
        <TextField control={control} name="interval" label="Interval" required hint="How often Flux reconciles" validate={(value) => intervalProblem(value.trim())} />
      </div>
      <Tabs.Root defaultValue="values" className="flex flex-col gap-2">
        <Tabs.List aria-label="Install" className="flex flex-wrap border-b border-gray-200">
          <Tabs.Trigger value="values" className={DETAIL_TAB_CLASS}>
            Values
          </Tabs.Trigger>
          <Tabs.Trigger value="flux" className={DETAIL_TAB_CLASS}>
            Flux
          </Tabs.Trigger>
          <Tabs.Trigger value="helm" className={DETAIL_TAB_CLASS}>
            Helm CLI
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="values" className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span id={valuesLabelId} className="text-sm font-medium text-gray-800">
              Values ({chart.chart} {chart.version})
            </span>
            <CopyButton text={text} label="Copy values" />
          </div>
          <CodeEditor language="yaml" value={text} onChange={handleValuesChange} schema={chart.valuesSchema} rows={14} invalid={problems.length > 0} ariaLabelledBy={valuesLabelId} />
          <ValuesProblems problems={problems} text={text} chart={chart} />
        </Tabs.Content>
        <Tabs.Content value="flux" className="flex flex-col gap-2">
          {outputWarning}
          <p className="text-sm text-gray-600">Commit this HelmRepository and HelmRelease to the repository Flux reconciles.</p>
          <CodeBlock code={fluxManifest(install)} copyLabel="Copy Flux manifest" label="Flux manifest" />
        </Tabs.Content>
        <Tabs.Content value="helm" className="flex flex-col gap-2">
          {outputWarning}
          <p className="text-sm text-gray-600">Or install it once with Helm, from a shell whose kubeconfig points at the cluster.</p>
          <CodeBlock code={helmCommand(install)} copyLabel="Copy Helm command" label="Helm command" />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
