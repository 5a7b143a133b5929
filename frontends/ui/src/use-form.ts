import { useCallback, useState, type ChangeEvent } from 'react';

export type FormErrors<K extends string> = Partial<Record<K, string>>;

export interface BoundField {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * Form values as strings plus the messages of a validate function. Errors appear after the first submit and
 * then follow the input, so a fixed field loses its message as soon as it is fixed.
 */
export function useForm<V extends Record<keyof V, string>>(initial: V, validate: (values: V) => FormErrors<Extract<keyof V, string>>) {
  type K = Extract<keyof V, string>;
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FormErrors<K>>({});
  const [submitted, setSubmitted] = useState(false);

  const setValue = useCallback(
    (name: K, value: string) => {
      const next: V = { ...values, [name]: value };
      setValues(next);
      if (submitted) setErrors(validate(next));
    },
    [values, submitted, validate],
  );

  const field = (name: K): BoundField => ({
    name,
    value: values[name] ?? '',
    error: errors[name],
    onChange: (event) => setValue(name, event.target.value),
  });

  /** Validates everything; true when the form may be sent. */
  const check = (): boolean => {
    const found = validate(values);
    setErrors(found);
    setSubmitted(true);
    return Object.keys(found).length === 0;
  };

  return { values, errors, field, setValue, check, setValues };
}

/**
 * A text field bound to one key of a draft that a dialog keeps itself (its own state, its own validation): the
 * key's text, its problem, and a change that names the key. `name` is the field's own name where the API calls it
 * otherwise (`accrualStartDate` for the draft's `startDate`). `<TextField label="Start date" type="date" {...field('startDate', 'accrualStartDate')} />`.
 */
export function bindDraft<D extends object>(draft: D, problems: Partial<Record<keyof D, string>>, change: (next: Partial<D>) => void) {
  return <K extends Extract<keyof D, string>>(key: K, name: string = key): BoundField => ({
    name,
    value: draft[key] === null || draft[key] === undefined ? '' : String(draft[key]),
    error: problems[key],
    onChange: (event) => change({ [key]: event.target.value } as Partial<D>),
  });
}
