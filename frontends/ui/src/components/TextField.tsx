import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cx } from '../cx';
import { FieldMessage, LabelText, inputClass } from './field-parts';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'required'> {
  label: string;
  name: string;
  required?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  /** Rendered inside the input's right edge, e.g. a show-password button. */
  trailing?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, name, required, error, hint, trailing, className, id, ref, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? `${name}-${generated}`;
  const messageId = `${inputId}-message`;
  const invalid = Boolean(error);
  return (
    <div className={className}>
      <label htmlFor={inputId}>
        <LabelText label={label} required={required} />
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          name={name}
          // aria-required rather than required: forms validate themselves and show the spec's messages.
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={error || hint ? messageId : undefined}
          className={cx(inputClass(invalid), trailing !== undefined && 'pr-16')}
          {...rest}
        />
        {trailing !== undefined && <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</div>}
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}
