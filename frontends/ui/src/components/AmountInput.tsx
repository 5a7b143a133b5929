import { AMOUNT_MAX_LENGTH, sanitizeAmount } from '../amount';
import { TextField, type TextFieldProps } from './TextField';

export interface AmountInputProps extends Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'inputMode' | 'maxLength'> {
  /** The accepted text: digits with an optional decimal point, or empty. */
  value: string;
  onValueChange: (value: string) => void;
}

/**
 * Spec §5 amount input: keeps only what the rule accepts (a typed or pasted '$1,234.50' becomes '1234.50';
 * a letter is ignored), at most 10 characters.
 */
export function AmountInput({ value, onValueChange, trailing, ...rest }: AmountInputProps) {
  return (
    <TextField
      {...rest}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      // Not maxLength: a pasted '$1,234,567.89' is longer than 10 before it is cleaned.
      aria-description={`Digits with an optional decimal point, at most ${AMOUNT_MAX_LENGTH} characters`}
      value={value}
      trailing={trailing}
      onChange={(event) => {
        const next = sanitizeAmount(event.target.value);
        if (next !== null) onValueChange(next);
      }}
    />
  );
}
