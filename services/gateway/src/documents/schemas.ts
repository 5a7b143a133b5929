import type { Recurrence } from '@ledgerline/proto/documents/v1/documents_pb';
import { bool, int, str } from '../http/schemas.js';

/**
 * The recurrence fields of a bill, invoice or manual journal (spec documents-parties-integrations §3: isRecurredParent,
 * recurringStartDate, recurringEndDate, recurringSchedule of recurrenceDate and isRecurred, interval), with the end and
 * the activity (Active, Paused, Stopped). Shared by the documents' answers and the recurrence routes.
 */

const text = (maxLength: number, description: string) => ({ type: 'string', maxLength, description }) as const;

/** The schedule's fields of a recur body, and of a bill's, invoice's or manual journal's create / PUT body (spec §5 payloads). */
export const RECURRENCE_BODY = {
  recurringStartDate: text(10, 'YYYY-MM-DD: the first date of the schedule. Required when any recurrence field is given.'),
  recurringEndDate: text(10, 'YYYY-MM-DD, inclusive: the schedule ends on this date (recurringEndType date).'),
  interval: text(20, 'daily, weekly, monthly (default), quarterly or yearly.'),
  recurringEndType: text(10, 'never, date or count; absent: date with recurringEndDate, count with recurringCount, else never.'),
  recurringCount: { type: 'number', description: 'A positive integer: the number of occurrences in all (recurringEndType count).' },
} as const;

export const RecurrenceDateSchema = {
  $id: 'RecurrenceDate',
  type: 'object',
  additionalProperties: false,
  properties: {
    recurrenceDate: str,
    isRecurred: { ...bool, description: 'Whether this date was handled (its document created, or the template itself on its own date).' },
    documentId: str,
  },
  required: ['recurrenceDate', 'isRecurred', 'documentId'],
} as const;

export const RecurrenceSchema = {
  $id: 'Recurrence',
  type: 'object',
  additionalProperties: false,
  description: 'Its recurrence: as a template (isRecurredParent) or as a document a recurrence created (recurredFromId). Empty fields when it never recurred.',
  properties: {
    isRecurredParent: bool,
    recurringStartDate: str,
    recurringEndDate: str,
    interval: { ...str, description: 'daily, weekly, monthly, quarterly or yearly.' },
    recurringEndType: { ...str, description: 'never, date or count.' },
    recurringCount: { ...int, description: 'Occurrences in all, when it ends after a count.' },
    activity: { ...str, description: 'Active, Paused or Stopped.' },
    recurringSchedule: { type: 'array', items: { $ref: 'RecurrenceDate#' }, description: 'The dates handled so far, then the next ones (at most 12).' },
    nextRecurrenceDate: str,
    recurredFromId: str,
  },
  required: [
    'isRecurredParent',
    'recurringStartDate',
    'recurringEndDate',
    'interval',
    'recurringEndType',
    'recurringCount',
    'activity',
    'recurringSchedule',
    'nextRecurrenceDate',
    'recurredFromId',
  ],
} as const;

export function recurrenceJson(r: Recurrence | undefined): Record<string, unknown> {
  return {
    isRecurredParent: r?.isRecurredParent ?? false,
    recurringStartDate: r?.recurringStartDate ?? '',
    recurringEndDate: r?.recurringEndDate ?? '',
    interval: r?.interval ?? '',
    recurringEndType: r?.recurringEndType ?? '',
    recurringCount: r?.recurringCount ?? 0,
    activity: r?.activity ?? '',
    recurringSchedule: (r?.recurringSchedule ?? []).map((d) => ({ recurrenceDate: d.recurrenceDate, isRecurred: d.isRecurred, documentId: d.documentId })),
    nextRecurrenceDate: r?.nextRecurrenceDate ?? '',
    recurredFromId: r?.recurredFromId ?? '',
  };
}
