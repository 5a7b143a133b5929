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
