import { Field, Label, Listbox, ListboxButton } from '@headlessui/react';
import { cx } from '../cx';
import { ChevronDownIcon } from '../icons';
import { LabelText, inputClass } from './field-parts';
import { multiSelectSummary } from '../multi-select-summary';
import { SelectOptions, type SelectOption } from './Select';

export interface MultiSelectProps<T extends string> {
  label: string;
  name: string;
  options: readonly SelectOption<T>[];
  value: readonly T[];
  onChange: (value: T[]) => void;
  /** Shown when nothing is chosen (e.g. "All groups"). */
  placeholder: string;
  disabled?: boolean;
  className?: string;
}

export { multiSelectSummary };

/** A Select that keeps several values (report filters by groups or tags); the list stays open while choosing. */
export function MultiSelect<T extends string>({ label, name, options, value, onChange, placeholder, disabled, className }: MultiSelectProps<T>) {
  const chosen = options.filter((o) => value.includes(o.value)).map((o) => o.label);
  return (
    <Field className={className} disabled={disabled ?? false}>
      <Label>
        <LabelText label={label} required={false} />
      </Label>
      <Listbox value={[...value]} onChange={(v: T[]) => onChange(v)} name={name} multiple>
        <ListboxButton className={cx(inputClass(false), 'relative flex items-center justify-between text-left')}>
          <span className={cx('truncate', chosen.length === 0 && 'text-slate-400 dark:text-slate-500')}>{multiSelectSummary(chosen, placeholder)}</span>
          <ChevronDownIcon className="size-4 shrink-0 text-slate-400" />
        </ListboxButton>
        <SelectOptions options={options} />
      </Listbox>
    </Field>
  );
}
