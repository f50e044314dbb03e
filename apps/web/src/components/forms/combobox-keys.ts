import type { Dispatch, KeyboardEvent, SetStateAction } from 'react';

export interface ComboboxKeyState<T> {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The options shown, in order; `active` indexes them. */
  items: readonly T[];
  active: number;
  setActive: Dispatch<SetStateAction<number>>;
  onPick: (item: T) => void;
  /** Escape while open: close and clear the typed text. */
  onClose: () => void;
  /** Inside a dialog, Escape closes the list only and a second one reaches the dialog. */
  stopEscape?: boolean;
}

/**
 * The keys of the ARIA combobox pattern on a text input: arrows open the list or move through it (wrapping), Enter
 * picks the active option, Escape closes. Other keys are left to the input.
 */
export function handleComboboxKey<T>(event: KeyboardEvent<HTMLElement>, state: ComboboxKeyState<T>): void {
  const { open, items } = state;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    if (!open) {
      state.setOpen(true);
      return;
    }
    const step = event.key === 'ArrowDown' ? 1 : -1;
    state.setActive((index) => (items.length === 0 ? 0 : (index + step + items.length) % items.length));
  } else if (event.key === 'Enter' && open) {
    event.preventDefault();
    const item = items[state.active];
    if (item !== undefined) state.onPick(item);
  } else if (event.key === 'Escape' && open) {
    if (state.stopEscape === true) event.stopPropagation();
    else event.preventDefault();
    state.onClose();
  }
}
