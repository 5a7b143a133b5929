import { Combobox as HeadlessCombobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useEffect, useId, useRef, useState } from 'react';
import { cx } from '../cx';
import { CheckIcon, ChevronDownIcon } from '../icons';
import { FieldMessage, LabelText, inputClass } from './field-parts';
import { optionClass, optionsPanelClass } from './Select';

export interface ComboboxOptionItem {
  value: string;
  title: string;
}

/** Spec §5: a case-insensitive "contains" match on the title. */
export function filterOptions<O extends { title: string }>(options: readonly O[], query: string): O[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...options];
  return options.filter((o) => o.title.toLowerCase().includes(needle));
}

export const addOptionLabel = (text: string) => `Add: "${text}"`;

/** Spec §9: the search text clears 500 ms after the list closes. */
export const SEARCH_CLEAR_DELAY_MS = 500;

export interface ComboboxProps {
  label: string;
  name: string;
  options: readonly ComboboxOptionItem[];
  value: string | null;
  onChange: (value: string) => void;
  /** When given, a search without a match offers `Add: "{text}"`, which calls this with the text. */
  onCreate?: (text: string) => void;
  placeholder?: string;
  required?: boolean;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
}

// A value no real option can have: it marks the "Add" entry.
const CREATE_PREFIX = '\u0000create:';

export function Combobox({ label, name, options, value, onChange, onCreate, placeholder, required, error, disabled, className }: ComboboxProps) {
  const [query, setQuery] = useState('');
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const messageId = useId();
  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const filtered = filterOptions(options, query);
  const offerCreate = onCreate !== undefined && query.trim() !== '' && filtered.length === 0;
  const titleOf = (v: string | null) => options.find((o) => o.value === v)?.title ?? '';

  return (
    <Field className={className} disabled={disabled ?? false}>
      <Label>
        <LabelText label={label} required={required} />
      </Label>
      <HeadlessCombobox
        value={value}
        name={name}
        invalid={Boolean(error)}
        immediate
        onChange={(v: string | null) => {
          if (v === null) return;
          if (v.startsWith(CREATE_PREFIX)) onCreate?.(v.slice(CREATE_PREFIX.length));
          else onChange(v);
        }}
        onClose={() => {
          clearTimeout(clearTimer.current);
          clearTimer.current = setTimeout(() => setQuery(''), SEARCH_CLEAR_DELAY_MS);
        }}
      >
        <div className="relative">
          <ComboboxInput
            aria-describedby={error ? messageId : undefined}
            aria-required={required || undefined}
            placeholder={placeholder}
            displayValue={titleOf}
            onChange={(event) => {
              clearTimeout(clearTimer.current);
              setQuery(event.target.value);
            }}
            className={cx(inputClass(Boolean(error)), 'pr-9')}
          />
          <ComboboxButton className="absolute inset-y-0 right-0 flex items-center px-2.5 text-slate-400" aria-label={`Show ${label} options`}>
            <ChevronDownIcon className="size-4" />
          </ComboboxButton>
        </div>
        <ComboboxOptions anchor="bottom start" className={cx(optionsPanelClass, 'empty:invisible')}>
          {filtered.map((option) => (
            <ComboboxOption key={option.value} value={option.value} className={optionClass}>
              <span>{option.title}</span>
              <CheckIcon className="invisible size-4 text-brand-600 group-data-selected:visible" />
            </ComboboxOption>
          ))}
          {offerCreate && (
            <ComboboxOption value={`${CREATE_PREFIX}${query.trim()}`} className={optionClass}>
              {addOptionLabel(query.trim())}
            </ComboboxOption>
          )}
        </ComboboxOptions>
      </HeadlessCombobox>
      <FieldMessage id={messageId} error={error} />
    </Field>
  );
}
