// A PDF's text layer as lines the way a person reads them, with pdf.js (Mozilla's PDF reader, `pdfjs-dist`):
// pieces sharing a baseline joined left to right, a wide gap (a column break) kept as two spaces.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// In Node, pdf.js reads the standard fonts' metrics with fs: a directory path, not a file: URL.
const fontsDir = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

interface Piece {
  text: string;
  x: number;
  right: number;
  y: number;
  height: number;
}

/** At most this many pages are read (a bill or receipt is a few pages; a 500-page upload is not read whole). */
export const MAX_PAGES = 20;

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: fontsDir, verbosity: 0, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const pieces: Piece[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const t = item.transform as number[];
        const x = t[4] ?? 0;
        const height = Math.abs(t[3] ?? 0) || item.height || 10;
        pieces.push({ text: item.str, x, right: x + item.width, y: t[5] ?? 0, height });
      }
      pages.push(joinLines(pieces));
      page.cleanup();
    }
    return pages.join('\n\n');
  } finally {
    await doc.destroy();
  }
}

/** Pieces on one baseline (within a third of the text height) form a line, top to bottom. */
function joinLines(pieces: Piece[]): string {
  const sorted = [...pieces].sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Piece[][] = [];
  for (const p of sorted) {
    const row = rows.find((r) => Math.abs(r[0]!.y - p.y) <= Math.max(2, r[0]!.height / 3));
    if (row) row.push(p);
    else rows.push([p]);
  }
  return rows
    .map((r) => {
      const ps = r.sort((a, b) => a.x - b.x);
      let line = '';
      let prev: Piece | undefined;
      for (const p of ps) {
        if (prev) {
          const gap = p.x - prev.right;
          line += gap > p.height * 0.9 ? '  ' : gap > p.height * 0.15 || !/\s$/.test(line) ? ' ' : '';
        }
        line += p.text;
        prev = p;
      }
      return line.replace(/ {3,}/g, '  ').trim();
    })
    .join('\n');
}
