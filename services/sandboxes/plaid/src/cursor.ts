// /transactions/sync cursors: opaque base64 of (item tag, log position, snapshot end). See domain/item.ts.
export interface SyncCursor {
  position: number;
  end: number;
}

const VERSION = 'llc1';

export function encodeCursor(itemTag: string, cursor: SyncCursor): string {
  return Buffer.from(`${VERSION}:${itemTag}:${cursor.position}:${cursor.end}`, 'utf8').toString('base64');
}

/** The cursor, or undefined if it is not one of this item's cursors. */
export function decodeCursor(itemTag: string, text: string): SyncCursor | undefined {
  if (text.length > 256 || !/^[A-Za-z0-9+/]+=*$/.test(text)) return undefined;
  const parts = Buffer.from(text, 'base64').toString('utf8').split(':');
  if (parts.length !== 4 || parts[0] !== VERSION || parts[1] !== itemTag) return undefined;
  const position = Number(parts[2]);
  const end = Number(parts[3]);
  if (!Number.isSafeInteger(position) || !Number.isSafeInteger(end) || position < 0 || position > end) return undefined;
  return { position, end };
}
