import { DialogBackdrop, DialogPanel, DialogTitle, Dialog as HeadlessDialog, Description } from '@headlessui/react';
import type { ReactNode } from 'react';

/** How wide the centred card is from 48em: md for a short form, lg and xl for documents with line items. */
export type DialogSize = 'md' | 'lg' | 'xl';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons shown at the bottom right, pinned: the content scrolls above them, so they are never below the fold. */
  actions?: ReactNode;
  /** md (28rem, the default), lg (48rem) or xl (64rem). Below 48em every size is a full-screen sheet. */
  size?: DialogSize;
}

const WIDTHS: Readonly<Record<DialogSize, string>> = { md: 'md:max-w-md', lg: 'md:max-w-3xl', xl: 'md:max-w-5xl' };

export function Dialog({ open, onClose, title, description, children, actions, size = 'md' }: DialogProps) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-950/50 transition-opacity data-closed:opacity-0" />
      {/*
        Below 48em the dialog is a full-screen sheet; from 48em a centred card at most the window's height. Either way
        the title stays at the top, the content scrolls inside, and the actions stay pinned at the bottom.
      */}
      {/*
        The frame keeps clear of the notices shown at the window's top and bottom (the Notices region writes how much
        room they take into --notice-space-top / --notice-space-bottom), so a notice never covers the pinned actions.
      */}
      <div
        data-dialog-frame=""
        className="fixed inset-0 flex items-stretch justify-center pt-[var(--notice-space-top,0px)] pb-[var(--notice-space-bottom,0px)] md:items-center md:px-4 md:pt-[max(1rem,var(--notice-space-top,0px))] md:pb-[max(1rem,var(--notice-space-bottom,0px))]"
      >
        <DialogPanel
          transition
          data-dialog-panel=""
          className={`flex max-h-full w-full flex-col bg-white shadow-xl ring-1 ring-slate-200 transition data-closed:scale-95 data-closed:opacity-0 md:rounded-xl dark:bg-slate-900 dark:ring-slate-800 ${WIDTHS[size]}`}
        >
          <div className="shrink-0 px-6 pt-6">
            <DialogTitle className="text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</DialogTitle>
            {description && <Description className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</Description>}
          </div>
          <div data-dialog-body="" className="min-h-0 flex-1 overflow-y-auto px-6 pt-4 pb-6">
            {children}
          </div>
          {actions && (
            <div data-dialog-actions="" className="flex shrink-0 flex-wrap justify-end gap-3 border-t border-slate-200 px-6 py-4 dark:border-slate-800">
              {actions}
            </div>
          )}
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}
