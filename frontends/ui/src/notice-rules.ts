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

/** A box on the screen, in CSS pixels from the window's top left (DOMRect's fields). */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where each region's notices are drawn while dropdowns are open: on their own edge, on the other edge, or hidden.
 * 'hidden' is the rare case of an open panel reaching both edges of the window.
 */
export type NoticeEdge = NoticePlacement | 'hidden';
export type NoticeEdges = Record<NoticePlacement, NoticeEdge>;

/** The offset of a region from its edge (1rem), the gap between notices and between regions (0.5rem), their column's widest (28rem). */
const NOTICE_OFFSET = 16;
const NOTICE_GAP = 8;
const NOTICE_COLUMN = 448;

const other = (placement: NoticePlacement): NoticePlacement => (placement === 'top' ? 'bottom' : 'top');

const overlaps = (a: ScreenBox, b: ScreenBox): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The box a region's notices take on `edge`: the native region of an edge sits nearest it, a region that moved there
 * from the other edge stacks after it (1rem from the edge, 0.5rem apart, centred, at most 28rem wide).
 */
function regionBox(
  placement: NoticePlacement,
  edge: NoticePlacement,
  heights: Record<NoticePlacement, number>,
  viewport: { width: number; height: number },
): ScreenBox {
  const width = Math.max(0, Math.min(viewport.width - 2 * NOTICE_OFFSET, NOTICE_COLUMN));
  const x = (viewport.width - width) / 2;
  const height = heights[placement];
  const offset = noticeOffset(placement, edge, heights);
  return { x, y: edge === 'top' ? offset : viewport.height - offset - height, width, height };
}

/** How far a region drawn on `edge` sits from it, in pixels: 1rem, plus the native region's notices and a gap when it moved there. */
export function noticeOffset(placement: NoticePlacement, edge: NoticePlacement, heights: Record<NoticePlacement, number>): number {
  return NOTICE_OFFSET + (placement === edge || heights[edge] === 0 ? 0 : heights[edge] + NOTICE_GAP);
}

/**
 * Notices yield to an open dropdown (decision 0041): the options a person is choosing from stay whole and usable, and
 * the notices stay readable. A region whose notices would cover an open panel (a Select's or Combobox's options, a
 * menu, a date picker) moves to the window's other edge, after the notices there; when the panel reaches that edge
 * too, the region hides until the panel closes. With no panel open, or none in the way, each region keeps its edge.
 */
export function noticeEdges(heights: Record<NoticePlacement, number>, panels: readonly ScreenBox[], viewport: { width: number; height: number }): NoticeEdges {
  const edges: NoticeEdges = { top: 'top', bottom: 'bottom' };
  const clear = (box: ScreenBox) => !panels.some((panel) => overlaps(panel, box));
  for (const placement of ['bottom', 'top'] as const) {
    if (heights[placement] === 0 || clear(regionBox(placement, placement, heights, viewport))) continue;
    edges[placement] = clear(regionBox(placement, other(placement), heights, viewport)) ? other(placement) : 'hidden';
  }
  return edges;
}

/**
 * How far from each edge of the window its notices reach (what `--notice-space-top` / `--notice-space-bottom` carry):
 * the heights of the regions drawn on that edge, the gaps between them, the offset and a gap (`noticeSpace`).
 */
export function noticeSpaces(heights: Record<NoticePlacement, number>, edges: NoticeEdges): Record<NoticePlacement, string> {
  const reach = (edge: NoticePlacement): number => {
    const shown = (['top', 'bottom'] as const).filter((p) => edges[p] === edge && heights[p] > 0).map((p) => heights[p]);
    return shown.length === 0 ? 0 : shown.reduce((sum, h) => sum + h, 0) + NOTICE_GAP * (shown.length - 1);
  };
  return { top: noticeSpace(reach('top')), bottom: noticeSpace(reach('bottom')) };
}
