import { Link, type LinkProps } from 'react-router';

export function TextLink({ className, ...props }: LinkProps) {
  return <Link className={`font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300 ${className ?? ''}`} {...props} />;
}
