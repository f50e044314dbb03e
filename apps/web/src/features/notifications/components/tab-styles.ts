export const TAB_TRIGGER =
  'border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';
