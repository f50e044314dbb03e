import type { ReactNode } from 'react';

export interface FormFieldProps {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}

export function fieldIds(name: string) {
  const id = `field-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  return { id, errorId: `${id}-error`, hintId: `${id}-hint` };
}

/** Ids of the texts that describe a control: its hint and, when invalid, its error. */
export function describedBy(name: string, hasHint: boolean, hasError: boolean): string | undefined {
  const { errorId, hintId } = fieldIds(name);
  const ids = [hasHint && hintId, hasError && errorId].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** Label, control, hint and error of one form field. */
export function FormField({ id, label, required, hint, error, children }: FormFieldProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-red-600">
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-gray-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
