import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  name: string;
  description?: ReactNode;
}

export function Checkbox({ label, name, description, id, className, ...rest }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? `${name}-${generated}`;
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input id={inputId} name={name} type="checkbox" className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600 dark:border-slate-600" {...rest} />
        <div className="text-sm">
          <label htmlFor={inputId} className="font-medium text-slate-700 dark:text-slate-200">
            {label}
          </label>
          {description && <p className="text-slate-500 dark:text-slate-400">{description}</p>}
        </div>
      </div>
    </div>
  );
}
