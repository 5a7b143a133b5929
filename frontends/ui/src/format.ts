// Spec §9: USD, en-US, 2 decimals; short money uses k, m and b at 1e3, 1e6 and 1e9; short ids are the last 6 characters upper-cased.
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatMoney(amount: number): string {
  return money.format(amount);
}

const shortUnits = [
  { size: 1e9, suffix: 'b' },
  { size: 1e6, suffix: 'm' },
  { size: 1e3, suffix: 'k' },
] as const;

const compact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatShortMoney(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const unit = shortUnits.find((u) => abs >= u.size);
  if (unit === undefined) return formatMoney(amount);
  return `${sign}$${compact.format(abs / unit.size)}${unit.suffix}`;
}

export function shortId(id: string): string {
  return id.slice(-6).toUpperCase();
}

const relativeUnits = [
  { ms: 86_400_000, unit: 'day' },
  { ms: 3_600_000, unit: 'hour' },
  { ms: 60_000, unit: 'minute' },
] as const;

/** Spec §9: relative time in days, hours, minutes or seconds ago ('3 hours ago', '1 day ago'). */
export function formatRelativeTime(when: Date | string, now: Date = new Date()): string {
  const then = typeof when === 'string' ? new Date(when) : when;
  const elapsed = Math.max(0, now.getTime() - then.getTime());
  const found = relativeUnits.find((u) => elapsed >= u.ms);
  const [count, unit] = found ? [Math.floor(elapsed / found.ms), found.unit] : [Math.floor(elapsed / 1000), 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}
