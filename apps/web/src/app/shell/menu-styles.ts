/** Shared look of the top bar's dropdown menus. */
export const menuContentClass =
  'z-50 min-w-56 rounded-md border border-gray-200 bg-white p-1 text-sm text-gray-700 shadow-lg';

export const menuItemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-gray-100 data-[highlighted]:text-gray-900 data-[disabled]:pointer-events-none data-[disabled]:opacity-50';

export const topBarButtonClass =
  'inline-flex size-9 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-600';
