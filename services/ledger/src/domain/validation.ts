import { AppError, isUuid, type FieldError } from '@ledgerline/platform';
import { isIsoDate } from './dates.js';
import { MSG } from './messages.js';

/** Collects field problems and throws them together as one 400 (nothing is changed). */
export class Problems {
  readonly fields: FieldError[] = [];
  add(field: string, message: string): void {
    this.fields.push({ field, message });
  }
  uuid(field: string, value: string | undefined, { required = false } = {}): void {
    if (value === undefined || value === '') {
      if (required) this.add(field, MSG.required(field));
      return;
    }
    if (!isUuid(value)) this.add(field, MSG.uuid(field));
  }
  uuids(field: string, values: readonly string[]): void {
    if (values.some((v) => !isUuid(v))) this.add(field, MSG.uuid(field));
  }
  date(field: string, value: string | undefined): void {
    if (value && !isIsoDate(value)) this.add(field, MSG.date(field));
  }
  throwIfAny(): void {
    if (this.fields.length > 0) throw AppError.invalid(this.fields);
  }
}

export interface Paging {
  page: number;
  take: number;
}

/** Spec §5: page at least 1, take from 1 to 100, default 20. */
export function paging(p: Problems, page: number | undefined, take: number | undefined): Paging {
  const pg = page ?? 1;
  const tk = take ?? 20;
  if (!Number.isInteger(pg) || pg < 1) p.add('page', MSG.page);
  if (!Number.isInteger(tk) || tk < 1 || tk > 100) p.add('take', MSG.take);
  return { page: pg, take: tk };
}

export function pageMeta({ page, take }: Paging, itemCount: number) {
  const pageCount = Math.ceil(itemCount / take);
  return { page, take, itemCount, pageCount, hasPreviousPage: page > 1, hasNextPage: page < pageCount };
}
