import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { useId } from 'react';
import { cx } from '../cx';
import { CheckIcon, ChevronDownIcon } from '../icons';
import { FieldMessage, LabelText, inputClass } from './field-parts';

export interface SelectOption<T extends string = string> {
  value: T;
  label: string;
}

export interface SelectProps<T extends string> {
  label: string;
  /** Also the name of the hidden input headlessui renders, so the value posts with a native form. */
  name: string;
  options: readonly SelectOption<T>[];
  value: T | null;
  onChange: (value: T) => void;
  placeholder?: string;
  required?: boolean;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
}

/**
 * Where a dropdown panel opens: below its field, flipped above when there is no room below, shifted to stay 8 px
 * inside the viewport (floating-ui's flip, shift and size, as headlessui's `anchor` applies them). Anchored
 * panels are portaled to the end of the body, so a table that clips its overflow does not cut them.
 */
export const panelAnchor = { to: 'bottom start', gap: 4, padding: 8 } as const;

/**
 * A dropdown panel: at least as wide as its field (each user adds `min-w-(--button-width)` or
 * `min-w-(--input-width)`), wider when an option needs it, at most 28rem and never wider than the viewport;
 * at most 16rem tall (less when the viewport has less room); above the page's own layers.
 */
export const panelClass = cx(
  'z-50 w-max max-w-[min(28rem,calc(100vw-1rem))]! [--anchor-max-height:16rem] overflow-auto rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none',
  'dark:border-slate-700 dark:bg-slate-900',
);

/** The panel of a Listbox, whose button is the whole field. */
export const optionsPanelClass = cx(panelClass, 'min-w-(--button-width)');

export const optionClass = cx(
  'group flex cursor-pointer items-center justify-between gap-2 rounded-md px-2.5 py-2 text-slate-800 select-none',
  'data-focus:bg-brand-50 data-focus:text-brand-900 dark:text-slate-100 dark:data-focus:bg-brand-950 dark:data-focus:text-brand-100',
);

export function Select<T extends string>({
  label,
  name,
  options,
  value,
  onChange,
  placeholder = 'Select…',
  required,
  error,
  disabled,
  className,
}: SelectProps<T>) {
  const messageId = useId();
  const selected = options.find((o) => o.value === value);
  return (
    <Field className={className} disabled={disabled ?? false}>
      <Label>
        <LabelText label={label} required={required} />
      </Label>
      <Listbox value={value} onChange={(v: T | null) => v !== null && onChange(v)} name={name} invalid={Boolean(error)}>
        <ListboxButton
          aria-describedby={error ? messageId : undefined}
          aria-required={required || undefined}
          className={cx(inputClass(Boolean(error)), 'relative flex items-center justify-between text-left')}
        >
          <span className={cx('truncate', selected === undefined && 'text-slate-400 dark:text-slate-500')}>{selected?.label ?? placeholder}</span>
          <ChevronDownIcon className="size-4 shrink-0 text-slate-400" />
        </ListboxButton>
        <SelectOptions options={options} />
      </Listbox>
      <FieldMessage id={messageId} error={error} />
    </Field>
  );
}

/** A Listbox's panel of options, each with a check when chosen (Select, MultiSelect). */
export function SelectOptions<T extends string>({ options }: { options: readonly SelectOption<T>[] }) {
  return (
    <ListboxOptions anchor={panelAnchor} className={optionsPanelClass}>
      {options.map((option) => (
        <ListboxOption key={option.value} value={option.value} className={optionClass}>
          <span>{option.label}</span>
          <CheckIcon className="invisible size-4 text-brand-600 group-data-selected:visible" />
        </ListboxOption>
      ))}
    </ListboxOptions>
  );
}
