import { Popover } from 'radix-ui';
import { Columns3 } from 'lucide-react';

/**
 * What a person chose about a table's columns, kept as a preference: `shown` are on at every width, `hidden` off at
 * every width; the others follow the table's width (their hideBelow).
 */
export interface ColumnChoice {
  shown: string[];
  hidden: string[];
}

export const NO_COLUMN_CHOICE: ColumnChoice = { shown: [], hidden: [] };

/** The stored choice, or none when the text is not one (an old or hand-edited preference). */
export function parseColumnChoice(text: string): ColumnChoice {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return NO_COLUMN_CHOICE;
    const list = (key: string): string[] => {
      const entries: unknown = (value as Record<string, unknown>)[key];
      return Array.isArray(entries) ? entries.filter((entry): entry is string => typeof entry === 'string') : [];
    };
    return { shown: list('shown'), hidden: list('hidden') };
  } catch {
    return NO_COLUMN_CHOICE;
  }
}

/** Whether a column is on: the person's choice first, else the width. */
export function isColumnOn(choice: ColumnChoice, column: { id: string; hideBelow?: number }, width: number): boolean {
  if (choice.hidden.includes(column.id)) return false;
  if (choice.shown.includes(column.id)) return true;
  return width === 0 || width >= (column.hideBelow ?? 0);
}

/** The choice after turning a column on or off. */
export function toggleColumn(choice: ColumnChoice, id: string, on: boolean): ColumnChoice {
  const shown = choice.shown.filter((entry) => entry !== id);
  const hidden = choice.hidden.filter((entry) => entry !== id);
  return on ? { shown: [...shown, id], hidden } : { shown, hidden: [...hidden, id] };
}

export interface ColumnChooserProps {
  columns: ReadonlyArray<{ id: string; header: string; hideBelow?: number }>;
  choice: ColumnChoice;
  width: number;
  onChange: (choice: ColumnChoice) => void;
}

/** 'Columns': a checkbox per column, and Reset to let the width decide again (#34 item 23). */
export function ColumnChooser({ columns, choice, width, onChange }: ColumnChooserProps) {
  return (
    <Popover.Root>
      <Popover.Trigger className="inline-flex h-7 items-center gap-1.5 rounded-md bg-white px-2 text-xs text-gray-700 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500">
        <Columns3 aria-hidden="true" className="size-3.5" />
        Columns
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="end" sideOffset={4} aria-label="Columns" className="z-50 max-h-80 w-56 overflow-auto rounded-md bg-white p-2 shadow-lg ring-1 ring-gray-200">
          <ul className="flex flex-col gap-1">
            {columns.map((column) => (
              <li key={column.id}>
                <label className="flex items-center gap-2 text-sm text-gray-800">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-gray-300"
                    checked={isColumnOn(choice, column, width)}
                    onChange={(event) => onChange(toggleColumn(choice, column.id, event.target.checked))}
                  />
                  {column.header}
                </label>
              </li>
            ))}
          </ul>
          <button type="button" className="mt-2 text-xs text-blue-700 hover:underline" onClick={() => onChange(NO_COLUMN_CHOICE)}>
            Reset to fit the width
          </button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
