// Spec §8: errors by default at the bottom; a 401 or a warning goes to the top as a warning; custom notices
// sit at the bottom until dismissed.
export type NoticeType = 'error' | 'warning' | 'success' | 'info' | 'custom';
export type NoticePlacement = 'top' | 'bottom';

export interface NoticeAction {
  label: string;
  onClick: () => void;
}

export interface NoticeInput {
  message: string;
  title?: string;
  type?: NoticeType;
  /** The HTTP status behind the notice, when it reports a failed call. */
  statusCode?: number;
  /** Milliseconds until it hides; null keeps it until dismissed. */
  duration?: number | null;
  action?: NoticeAction;
  /** Further actions after `action`, side by side (a notice the user can act on in more than one way). */
  actions?: NoticeAction[];
  /** A notice with the id of one already shown replaces it instead of stacking. */
  id?: string;
}

export interface Notice {
  id: string;
  message: string;
  title: string | undefined;
  type: NoticeType;
  placement: NoticePlacement;
  duration: number | null;
  action: NoticeAction | undefined;
  actions: NoticeAction[];
}

export const DEFAULT_NOTICE_DURATION_MS = 5000;

let counter = 0;

export function resolveNotice(input: NoticeInput): Notice {
  const type: NoticeType = input.statusCode === 401 ? 'warning' : (input.type ?? 'error');
  return {
    id: input.id ?? `notice-${++counter}`,
    message: input.message,
    title: input.title,
    type,
    placement: type === 'warning' ? 'top' : 'bottom',
    duration: type === 'custom' ? null : input.duration === undefined ? DEFAULT_NOTICE_DURATION_MS : input.duration,
    action: input.action,
    actions: input.actions ?? [],
  };
}

/**
 * The CSS variable through which a region tells the page how much of the window's edge its notices take
 * (`--notice-space-top`, `--notice-space-bottom`): the ui kit's Dialog keeps its panel clear of that much, so a notice
 * never covers a dialog's pinned actions or its title.
 */
export const noticeSpaceVariable = (placement: NoticePlacement): string => `--notice-space-${placement}`;

/** What a region of notices `height` pixels tall takes of the window's edge: its offset (1rem) and a gap (0.5rem); 0 when empty. */
export const noticeSpace = (height: number): string => (height > 0 ? `${Math.ceil(height) + 24}px` : '0px');
