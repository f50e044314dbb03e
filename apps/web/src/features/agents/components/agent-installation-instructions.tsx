import { Tabs } from 'radix-ui';
import { TriangleAlert } from 'lucide-react';
import { fluxManifest, helmCommand, type InstallationTarget } from '../installation-instructions';
import { CopyButton } from '@/components/button/copy-button';

const TAB_TRIGGER =
  'border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-gray-600 hover:text-gray-900 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';

function CodeBlock({ code, copyLabel }: { code: string; copyLabel: string }) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <CopyButton text={code} label={copyLabel} />
      </div>
      <pre className="palette-light max-h-96 overflow-auto rounded-md bg-gray-900 p-3 dark:bg-gray-950 text-xs leading-relaxed text-gray-100">
        <code>{code}</code>
      </pre>
    </div>
  );
}

export interface AgentInstallationInstructionsProps {
  target: InstallationTarget;
}

/** How to install a just-created agent, with the access token that is never shown again. */
export function AgentInstallationInstructions({ target }: AgentInstallationInstructionsProps) {
  return (
    <div className="flex flex-col gap-3">
      <p role="note" className="flex items-start gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        The access token is shown only once. Copy these instructions now: the token cannot be retrieved later.
      </p>
      <Tabs.Root defaultValue="flux" className="flex flex-col gap-2">
        <Tabs.List aria-label="Installation method" className="flex gap-1 border-b border-gray-200">
          <Tabs.Trigger value="flux" className={TAB_TRIGGER}>
            Flux
          </Tabs.Trigger>
          <Tabs.Trigger value="helm" className={TAB_TRIGGER}>
            Helm CLI
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="flux" className="flex flex-col gap-2">
          <p className="text-sm text-gray-600">Commit this manifest to the repository Flux reconciles.</p>
          <CodeBlock code={fluxManifest(target)} copyLabel="Copy Flux manifest" />
        </Tabs.Content>
        <Tabs.Content value="helm" className="flex flex-col gap-2">
          <p className="text-sm text-gray-600">Run these commands with a kubeconfig pointing at the cluster.</p>
          <CodeBlock code={helmCommand(target)} copyLabel="Copy Helm commands" />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
