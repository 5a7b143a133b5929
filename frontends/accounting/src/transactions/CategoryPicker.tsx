import { describeError, useCategories, useCreateCategory } from '@ledgerline/api';
import { type Flow } from './filters';
import { Combobox, cx, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useMemo } from 'react';
import { categoryOptions, bookableCategories, newCategoryPlacement, recognisableCategories } from './category-options';

export interface CategoryPickerProps {
  label: string;
  name: string;
  value: string | null;
  onChange: (categoryId: string) => void;
  /** Where 'Add: "{text}"' puts a new category (next to the current category, else by direction). */
  flow: Exclude<Flow, 'all'>;
  currentCategoryId?: string | null;
  disabled?: boolean;
  error?: string | undefined;
  required?: boolean;
  /** The label is read by assistive technology only (inline in a table row). */
  hideLabel?: boolean;
  /** Offer only what an accrual can be recognised into (not the accounts the ledger keeps itself). */
  forRecognition?: boolean;
  className?: string;
}

/**
 * The category dropdown (spec §5): case-insensitive contains search over the categories a transaction can be
 * booked to, listed under their class group and group as the chart is (category-options.ts); with no match it
 * offers 'Add: "{text}"', which creates the category (POST /categories) and selects it. Typing starts a fresh
 * search (the ui kit's Combobox replaces the shown name on the first keystroke).
 */
export function CategoryPicker({
  label,
  name,
  value,
  onChange,
  flow,
  currentCategoryId,
  disabled,
  error,
  required,
  hideLabel,
  forRecognition,
  className,
}: CategoryPickerProps) {
  const categories = useCategories();
  const create = useCreateCategory();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const options = useMemo(
    () => categoryOptions((forRecognition ? recognisableCategories : bookableCategories)(categories.data ?? [])),
    [categories.data, forRecognition],
  );

  // The coaId is a guess from the categories listed; one taken by a group not listed is answered with a coaId
  // error, and the next number is tried (a few times at most).
  const createCategory = (name: string, placement: { parentId: string; coaId: number }, attemptsLeft: number) =>
    create.mutate(
      { name, ...placement },
      {
        onSuccess: (answer) => {
          notice.success(answer.message);
          onChange(answer.category.id);
        },
        onError: (error) => {
          if (error.field === 'coaId' && attemptsLeft > 0) createCategory(name, { ...placement, coaId: placement.coaId + 1 }, attemptsLeft - 1);
          else showError(error);
        },
      },
    );

  const onCreate = (text: string) => {
    const placement = newCategoryPlacement(categories.data ?? [], { categoryId: currentCategoryId ?? value, flow });
    if (placement === null) {
      notice.error('No category group to add the category to');
      return;
    }
    createCategory(text, placement, 5);
  };

  // Not disabled while a choice or a new category saves: a disabled field loses the keyboard focus, and the
  // person choosing with the keyboard would have to find the row again.
  return (
    <Combobox
      label={label}
      name={name}
      options={options}
      value={value}
      onChange={onChange}
      onCreate={onCreate}
      placeholder={categories.isPending ? 'Loading categories…' : 'Search categories'}
      disabled={(disabled ?? false) || categories.isPending}
      error={error ?? (categories.isError ? 'Categories could not be loaded' : undefined)}
      required={required ?? false}
      className={cx(hideLabel && '[&_label]:sr-only', className)}
    />
  );
}
