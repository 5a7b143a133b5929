/** The export formats of spec §7 and what each is sent as. */
export const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;
export type ExportFormat = keyof typeof CONTENT_TYPES;

/** Lower-case ASCII words joined by dashes: safe in any file system and in a quoted header value. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** e.g. ("profit-and-loss", "2026-01-01", "2026-12-31", "xlsx") → "profit-and-loss_2026-01-01_2026-12-31.xlsx"; empty parts are left out. */
export function exportFileName(base: string, parts: readonly string[], format: ExportFormat): string {
  return `${[base, ...parts.map(slug)].filter((p) => p !== '').join('_')}.${format}`;
}

/** The header the browser saves the download under (spec §5: the client reads the file name from it). */
export const contentDisposition = (fileName: string): string => `attachment; filename="${fileName}"`;
