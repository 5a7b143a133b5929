export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryParams = Readonly<Record<string, QueryValue>>;

const isEmpty = (value: QueryValue): value is null | undefined | '' =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Appends only the non-empty parameters; lists are comma-joined (spec §7). */
export function buildUrl(path: string, params?: QueryParams): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (isEmpty(value)) continue;
    search.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const query = search.toString();
  if (query === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}
