import { Combobox as HeadlessCombobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { addOptionLabel, addOptionText, filterOptions, groupOptions, SEARCH_CLEAR_DELAY_MS, startsSearch, type ComboboxOptionItem } from '../combobox-options';
import { cx } from '../cx';
import { CheckIcon, ChevronDownIcon } from '../icons';
import { FieldMessage, LabelText, inputClass } from './field-parts';
import { optionClass, panelAnchor, panelClass } from './Select';

export interface ComboboxProps {
  label: string;
  name: string;
  /** Options with a `group` are listed under non-selectable headers (see groupOptions). */
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

const headerClass = [
  'px-2.5 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400',
  'px-2.5 pt-1.5 pb-0.5 text-xs font-medium text-slate-600 dark:text-slate-300',
];

/**
 * A searchable dropdown. The input shows the chosen option's title; focusing it selects that text and the first
 * keystroke replaces it, so typing always starts a fresh search (spec §5: case-insensitive contains on the title;
 * no match offers 'Add: "{text}"'). The panel is at least as wide as the input, flips and shifts to stay on
 * screen, and is portaled above the page (so tables that clip their overflow do not cut it).
 */
export function Combobox({ label, name, options, value, onChange, onCreate, placeholder, required, error, disabled, className }: ComboboxProps) {
  const [query, setQuery] = useState('');
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // True from the first keystroke of a search until the list closes or an option is chosen: until then the input
  // shows the chosen option's title, which a keystroke replaces rather than edits.
  const searching = useRef(false);
  // Focus selects the title; the mouseup of the click that focused the input would otherwise drop the selection.
  const keepSelection = useRef(false);
  const messageId = useId();
  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const filtered = filterOptions(options, query);
  const sections = groupOptions(filtered);
  const addText = addOptionText(query, filtered.length, onCreate !== undefined);
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
          searching.current = false;
          if (v === null) return;
          if (v.startsWith(CREATE_PREFIX)) onCreate?.(v.slice(CREATE_PREFIX.length));
          else onChange(v);
        }}
        onClose={() => {
          searching.current = false;
          clearTimeout(clearTimer.current);
          clearTimer.current = setTimeout(() => setQuery(''), SEARCH_CLEAR_DELAY_MS);
        }}
      >
        <div className="relative">
          <ComboboxInput
            aria-describedby={error ? messageId : undefined}
            aria-required={required || undefined}
            // The search text the list is filtered by, kept 500 ms after the list closes (spec §9); absent when none.
            data-search={query === '' ? undefined : query}
            placeholder={placeholder}
            displayValue={titleOf}
            onFocus={(event) => {
              if (!searching.current) {
                // A new look at the list: the whole list, whatever the last search was.
                clearTimeout(clearTimer.current);
                setQuery('');
              }
              event.currentTarget.select();
              keepSelection.current = true;
            }}
            onMouseUp={(event) => {
              if (keepSelection.current) event.preventDefault();
              keepSelection.current = false;
            }}
            onKeyDown={(event) => {
              keepSelection.current = false;
              if (!searching.current && startsSearch(event)) event.currentTarget.select();
            }}
            onPaste={(event) => {
              if (!searching.current) event.currentTarget.select();
            }}
            onChange={(event) => {
              clearTimeout(clearTimer.current);
              searching.current = true;
              setQuery(event.target.value);
            }}
            className={cx(inputClass(Boolean(error)), 'pr-9')}
          />
          <ComboboxButton className="absolute inset-y-0 right-0 flex items-center px-2.5 text-slate-400" aria-label={`Show ${label} options`}>
            <ChevronDownIcon className="size-4" />
          </ComboboxButton>
        </div>
        <ComboboxOptions anchor={panelAnchor} className={cx(panelClass, 'min-w-(--input-width) empty:invisible')}>
          {sections.map((section) => (
            <Fragment key={section.path.join('\u0000')}>
              {section.headers.map((header) => (
                <div
                  key={`${header.level}:${header.title}`}
                  aria-hidden
                  className={cx(headerClass[Math.min(header.level, 1)], 'truncate')}
                  data-option-header={header.level}
                >
                  {header.title}
                </div>
              ))}
              <div role={section.path.length > 0 ? 'group' : undefined} aria-label={section.path.length > 0 ? section.path.join(' › ') : undefined}>
                {section.options.map((option) => (
                  <ComboboxOption
                    key={option.value}
                    value={option.value}
                    className={optionClass}
                    style={{ paddingLeft: `${0.625 + (section.path.length > 0 ? 0.5 : 0) + 1.5 * (option.depth ?? 0)}rem` }}
                  >
                    <span>{option.title}</span>
                    <CheckIcon className="invisible size-4 shrink-0 text-brand-600 group-data-selected:visible" />
                  </ComboboxOption>
                ))}
              </div>
            </Fragment>
          ))}
          {addText !== null && (
            <ComboboxOption value={`${CREATE_PREFIX}${addText}`} className={optionClass}>
              {addOptionLabel(addText)}
            </ComboboxOption>
          )}
        </ComboboxOptions>
      </HeadlessCombobox>
      <FieldMessage id={messageId} error={error} />
    </Field>
  );
}
