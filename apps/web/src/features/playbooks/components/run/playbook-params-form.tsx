import { useId } from 'react';
import { clsx } from 'clsx';
import { PLAYBOOK_TEXT_FORMATS, type PlaybookParameter, type PlaybookParameterSize } from '@opsdeck/shared';
import { CodeEditor } from '@/components/code-editor/code-editor';
import type { CodeLanguage } from '@/components/code-editor/text-diagnostics';
import { Dropdown } from '@/components/dropdown/dropdown';
import { inputClass } from '@/components/forms/styles';
import { selectorTypes } from '../../api/search-playbook-resources';
import { ResourcePicker } from './resource-picker';

const SIZE_CLASSES: Record<PlaybookParameterSize, string> = {
  'very-small': 'w-full sm:max-w-32',
  small: 'w-full sm:max-w-56',
  medium: 'w-full sm:max-w-md',
  large: 'w-full sm:max-w-2xl',
  full: 'w-full',
};

/** HTML input types a text parameter's `format` may ask for; the spec's own formats are typed as plain text. */
const INPUT_TYPES = new Set(['number', 'email', 'url', 'tel', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'password']);

export function inputTypeOf(format: string | undefined): string {
  if (format === undefined || (PLAYBOOK_TEXT_FORMATS as readonly string[]).includes(format)) return 'text';
  return INPUT_TYPES.has(format) ? format : 'text';
}

/** The value a parameter starts with: its resolved default, a checkbox as 'true' or 'false'. */
export function initialParameterValue(parameter: PlaybookParameter): string {
  if (parameter.type === 'checkbox') return parameter.default === 'true' ? 'true' : 'false';
  return parameter.default ?? '';
}

export interface PlaybookParamsFormProps {
  parameters: readonly PlaybookParameter[];
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
  onBlur: (name: string) => void;
  /** The message shown under each field, by parameter name. */
  errors: Record<string, string>;
  disabled?: boolean;
}

interface FieldProps {
  parameter: PlaybookParameter;
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
  describedBy: string | undefined;
  labelId: string;
  disabled: boolean;
}

/** What a quantity field shows while empty: the way Mission Control users write one. */
const QUANTITY_PLACEHOLDERS = { bytes: '512Mi', millicores: '500m', duration: '5m' } as const;

/** The editor parses and highlights yaml (the default) and json; any other language a spec names is plain text. */
function codeLanguage(language: string | undefined): CodeLanguage {
  if (language === undefined || language === 'yaml') return 'yaml';
  return language === 'json' ? 'json' : 'text';
}

/** A list parameter, or a duration parameter with options: one of the options. */
function OptionsControl({ parameter, id, value, onChange, onBlur, error, describedBy, disabled }: FieldProps) {
  return (
    <Dropdown
      id={id}
      options={(parameter.properties?.options ?? []).filter((option) => option.value !== '').map((option) => ({ value: option.value, label: option.label }))}
      value={value === '' ? undefined : value}
      onChange={(next) => {
        onChange(next);
        onBlur();
      }}
      disabled={disabled}
      invalid={error !== undefined}
      describedBy={describedBy}
      className="w-full"
    />
  );
}

/**
 * A size, CPU or duration typed as Kubernetes and Mission Control write them, or a secret typed unseen; the shared rules
 * check it.
 */
function PlainInput({ parameter, id, value, onChange, onBlur, error, describedBy, disabled, placeholder, inputType = 'text' }: FieldProps & { placeholder?: string; inputType?: 'text' | 'password' }) {
  return (
    <input
      id={id}
      type={inputType}
      autoComplete={inputType === 'password' ? 'off' : undefined}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      disabled={disabled}
      aria-invalid={error !== undefined || undefined}
      aria-describedby={describedBy}
      aria-required={parameter.required || undefined}
      className={inputClass(error !== undefined)}
    />
  );
}

function ParameterControl(field: FieldProps) {
  const { parameter, id, value, onChange, onBlur, error, describedBy, labelId, disabled } = field;
  const properties = parameter.properties ?? {};
  const invalid = error !== undefined;
  const aria = { 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy, 'aria-required': parameter.required || undefined };
  switch (parameter.type) {
    case 'checkbox':
      return (
        <input
          id={id}
          type="checkbox"
          checked={value === 'true'}
          onChange={(event) => onChange(event.target.checked ? 'true' : 'false')}
          onBlur={onBlur}
          disabled={disabled}
          {...aria}
          className="size-4 rounded border-gray-300 text-blue-600 focus-visible:outline-2 focus-visible:outline-blue-500"
        />
      );
    case 'list':
      return <OptionsControl {...field} />;
    case 'duration':
      return (properties.options ?? []).length > 0 ? <OptionsControl {...field} /> : <PlainInput {...field} placeholder={QUANTITY_PLACEHOLDERS.duration} />;
    case 'bytes':
    case 'millicores':
      return <PlainInput {...field} placeholder={QUANTITY_PLACEHOLDERS[parameter.type]} />;
    case 'secret':
      return <PlainInput {...field} inputType="password" />;
    case 'code':
      return (
        <div onBlur={onBlur}>
          <CodeEditor
            value={value}
            onChange={onChange}
            language={codeLanguage(properties.language)}
            readOnly={disabled}
            invalid={invalid}
            ariaLabelledBy={labelId}
            ariaDescribedBy={describedBy}
            rows={6}
          />
        </div>
      );
    case 'team':
    case 'people':
    case 'component':
    case 'config':
    case 'check':
      return (
        <ResourcePicker
          id={id}
          kind={parameter.type}
          types={selectorTypes(properties.filter)}
          value={value === '' ? null : value}
          onChange={(next) => {
            onChange(next ?? '');
            onBlur();
          }}
          disabled={disabled}
          invalid={invalid}
          describedBy={describedBy}
          required={parameter.required}
        />
      );
    case 'text':
      if (properties.multiline === true) {
        return (
          <textarea
            id={id}
            value={value}
            rows={4}
            onChange={(event) => onChange(event.target.value)}
            onBlur={onBlur}
            disabled={disabled}
            {...aria}
            className={inputClass(invalid)}
          />
        );
      }
      return (
        <input
          id={id}
          type={inputTypeOf(properties.format)}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          disabled={disabled}
          {...aria}
          className={inputClass(invalid)}
        />
      );
  }
}

/** The 'Playbook Parameters' fields (spec 001 §3 parameter types, §5 bounds), each with its message underneath. */
export function PlaybookParamsForm({ parameters, values, onChange, onBlur, errors, disabled = false }: PlaybookParamsFormProps) {
  const formId = useId();
  return (
    <div className="flex flex-col gap-3">
      {parameters.map((parameter, index) => {
        const id = `${formId}-param-${index}`;
        const labelId = `${id}-label`;
        const hintId = `${id}-hint`;
        const errorId = `${id}-error`;
        const error = errors[parameter.name];
        const hint = parameter.description ?? (parameter.properties?.jsonSchemaUrl === undefined ? undefined : `Schema: ${parameter.properties.jsonSchemaUrl}`);
        const describedBy = [hint !== undefined && hintId, error !== undefined && errorId].filter(Boolean).join(' ') || undefined;
        const label = (
          <label id={labelId} htmlFor={id} className="text-sm font-medium text-gray-800">
            {parameter.label ?? parameter.name}
            {parameter.required && (
              <span aria-hidden="true" className="ml-0.5 text-red-600">
                *
              </span>
            )}
          </label>
        );
        const control = (
          <ParameterControl
            parameter={parameter}
            id={id}
            value={values[parameter.name] ?? ''}
            onChange={(value) => onChange(parameter.name, value)}
            onBlur={() => onBlur(parameter.name)}
            error={error}
            describedBy={describedBy}
            labelId={labelId}
            disabled={disabled}
          />
        );
        return (
          <div key={parameter.name} className={clsx('flex flex-col gap-1', SIZE_CLASSES[parameter.properties?.size ?? 'full'])}>
            {parameter.type === 'checkbox' ? (
              <div className="flex items-center gap-2">
                {control}
                {label}
              </div>
            ) : (
              <>
                {label}
                {control}
              </>
            )}
            {hint !== undefined && (
              <p id={hintId} className="text-xs text-gray-500">
                {hint}
              </p>
            )}
            {error !== undefined && (
              <p id={errorId} role="alert" className="text-xs text-red-600">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
