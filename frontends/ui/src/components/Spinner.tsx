import { cx } from '../cx';

export interface SpinnerProps {
  label?: string;
  /** Inside a control that already says it is busy: hide the spinner from assistive technology. */
  decorative?: boolean;
  className?: string;
}

export function Spinner({ label = 'Loading', decorative = false, className }: SpinnerProps) {
  if (decorative) {
    return (
      <span aria-hidden="true" className={cx('inline-flex items-center', className)}>
        <SpinnerSvg />
      </span>
    );
  }
  return (
    <span role="status" className={cx('inline-flex items-center', className)}>
      <SpinnerSvg />
      <span className="sr-only">{label}</span>
    </span>
  );
}

function SpinnerSvg() {
  return (
    <svg className="size-5 animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
