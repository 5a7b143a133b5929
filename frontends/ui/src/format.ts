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
