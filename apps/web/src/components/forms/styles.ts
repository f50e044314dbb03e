import { clsx } from 'clsx';

export function inputClass(invalid: boolean, extra?: string): string {
  return clsx(
    'w-full rounded-md bg-white px-2.5 py-1.5 text-sm text-gray-900 ring-1 ring-inset focus:outline-2 focus:outline-blue-500 disabled:bg-gray-50 disabled:text-gray-500 read-only:bg-gray-50',
    invalid ? 'ring-red-400' : 'ring-gray-300',
    extra,
  );
}
