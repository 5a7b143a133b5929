import {
  EXPORT_FORMATS,
  describeError,
  isReportPathServed,
  reportExportPath,
  useReportExport,
  type ExportFormat,
  type ReportQuery,
  type ReportTab,
} from '@ledgerline/api';
import { fallbackExportName } from './screen';
import { Button, useErrorNotice } from '@ledgerline/ui';
import { useState } from 'react';

/** Hands a downloaded file to the browser as a save. */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by the next task; the object URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Spec §7 exports (CSV, Excel, PDF) of the report on screen, with the same filters; the server names the file (spec §5). */
export function ExportButtons({ tab, query, period }: { tab: ReportTab; query: ReportQuery; period: { startDate: string; endDate: string } }) {
  const exporter = useReportExport();
  const showError = useErrorNotice(describeError);
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const served = EXPORT_FORMATS.filter(({ format }) => isReportPathServed(reportExportPath(tab, format)));
  const run = (format: ExportFormat) => {
    setBusy(format);
    exporter.mutate(
      { tab, format, query },
      {
        onSuccess: (file) => saveFile(file.blob, file.fileName ?? fallbackExportName(tab, format, period)),
        onError: showError,
        onSettled: () => setBusy(null),
      },
    );
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <div role="group" aria-label="Export" className="flex gap-2">
        {EXPORT_FORMATS.map(({ format, label }) => {
          const available = served.some((s) => s.format === format);
          return (
            <Button
              key={format}
              variant="secondary"
              size="sm"
              disabled={!available || busy !== null}
              loading={busy === format}
              title={available ? `Download as ${label}` : `${label} export is not available yet`}
              onClick={() => run(format)}
            >
              {label}
            </Button>
          );
        })}
      </div>
      {served.length < EXPORT_FORMATS.length && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {served.length === 0 ? 'Exports are not available yet.' : 'Some exports are not available yet.'}
        </p>
      )}
    </div>
  );
}
