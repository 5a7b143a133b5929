import { DialogBackdrop, DialogPanel, DialogTitle, Dialog as HeadlessDialog, Description } from '@headlessui/react';
import type { ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons shown at the bottom right. */
  actions?: ReactNode;
}

export function Dialog({ open, onClose, title, description, children, actions }: DialogProps) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-950/50 transition-opacity data-closed:opacity-0" />
      {/* Below 48em the dialog is a full-screen sheet (the whole phone screen, scrolling inside); from 48em a centred card. */}
      <div className="fixed inset-0 flex items-stretch justify-center md:items-center md:p-4">
        <DialogPanel
          transition
          data-dialog-panel=""
          className="w-full overflow-y-auto bg-white p-6 shadow-xl ring-1 ring-slate-200 transition data-closed:scale-95 data-closed:opacity-0 md:max-h-full md:max-w-md md:rounded-xl dark:bg-slate-900 dark:ring-slate-800"
        >
          <DialogTitle className="text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</DialogTitle>
          {description && <Description className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</Description>}
          {children && <div className="mt-4">{children}</div>}
          {actions && <div className="mt-6 flex flex-wrap justify-end gap-3">{actions}</div>}
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}
