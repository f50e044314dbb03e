import { useId, useState, type FormEvent } from 'react';
import { Search } from 'lucide-react';
import { DEBOUNCE_MS, TOPOLOGY_CONFIG_SEARCH_LIMIT, type TopologyComponent } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { useComponentConfigsQuery } from '../api/get-component-configs';
import { useLinkConfigMutation } from '../api/link-config';
import { useLinkConfigSearchQuery } from '../api/link-config-search';
import { PickList } from './side-panel/pick-list';
import { useDebouncedValue } from '@/lib/use-debounced-value';

export interface LinkConfigDialogProps {
  component: TopologyComponent;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** `value`, once it has stopped changing for `delayMs`. */

function LinkConfigForm({ component, onDone }: { component: TopologyComponent; onDone: () => void }) {
  const formId = useId();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text, DEBOUNCE_MS.search);
  const [pickedId, setPickedId] = useState<string | null>(null);
  const candidates = useLinkConfigSearchQuery(search);
  const linked = useComponentConfigsQuery(component.id);
  const link = useLinkConfigMutation();
  const linkedIds = new Set((linked.data ?? []).map((entry) => entry.config_id));
  const rows = candidates.data ?? [];
  // A pick the current matches no longer show is dropped, so Link never links an item the user cannot see.
  const configId = rows.some((row) => row.id === pickedId && !linkedIds.has(row.id)) ? pickedId : null;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (configId === null || link.isPending) return;
    link.mutate({ componentId: component.id, configId }, { onSuccess: onDone });
  };

  return (
    <form aria-label="Link to config" onSubmit={handleSubmit} className="flex flex-col gap-3">
      <label className="relative flex items-center">
        <Search aria-hidden="true" className="pointer-events-none absolute left-2 size-4 text-gray-400" />
        <input
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search configs by name"
          aria-label="Search configs"
          className="h-8 w-full rounded-md bg-white pr-2 pl-8 text-sm ring-1 ring-gray-300 ring-inset focus:outline-2 focus:outline-blue-500"
        />
      </label>
      {candidates.isError ? (
        <QueryError subject="Configs" error={candidates.error} onRetry={() => void candidates.refetch()} />
      ) : candidates.isPending ? (
        <p role="status" className="text-sm text-gray-500">
          Searching…
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-gray-500">No result</p>
      ) : (
        <>
          <PickList
            name={`${formId}-config`}
            label="Configs"
            value={configId}
            onChange={setPickedId}
            options={rows.map((row) => ({
              id: row.id,
              label: row.name,
              detail: linkedIds.has(row.id) ? 'Linked' : (row.type ?? undefined),
              disabled: linkedIds.has(row.id),
            }))}
          />
          {rows.length >= TOPOLOGY_CONFIG_SEARCH_LIMIT && <p className="text-xs text-gray-500">Showing the first {TOPOLOGY_CONFIG_SEARCH_LIMIT} matches</p>}
        </>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" disabled={link.isPending} onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={configId === null} isPending={link.isPending}>
          Link
        </Button>
      </div>
    </form>
  );
}

/** Link to config (spec 001 §2.9): search the catalog by name (at most 50 matches), pick one, link it by hand. */
export function LinkConfigDialog({ component, open, onOpenChange }: LinkConfigDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Link ${component.name} to config`} size="small" expandable={false}>
      {open && <LinkConfigForm component={component} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}
