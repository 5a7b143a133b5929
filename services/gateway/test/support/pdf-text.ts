// Reads a PDF back the way a person sees it: the text of each page as lines (items sharing a baseline,
// left to right), with each piece's position, using pdf.js (Mozilla's PDF reader).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PdfPiece {
  text: string;
  x: number;
  right: number;
  y: number;
}
export interface PdfLine {
  y: number;
  text: string;
  pieces: PdfPiece[];
}
export interface PdfPage {
  lines: PdfLine[];
  text: string;
}

// In Node, pdf.js reads the standard fonts with fs: a directory path, not a file: URL.
const fontsUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export async function pdfPages(bytes: Uint8Array): Promise<PdfPage[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: fontsUrl, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const pieces: PdfPiece[] = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , , , x = 0, y = 0] = item.transform as number[];
      pieces.push({ text: item.str, x, right: x + item.width, y: Math.round(y * 10) / 10 });
    }
    const byY = new Map<number, PdfPiece[]>();
    for (const p of pieces) byY.set(p.y, [...(byY.get(p.y) ?? []), p]);
    const lines = [...byY.entries()]
      .sort(([a], [b]) => b - a)
      .map(([y, ps]) => {
        const sorted = ps.sort((a, b) => a.x - b.x);
        return { y, pieces: sorted, text: sorted.map((p) => p.text).join(' ') };
      });
    pages.push({ lines, text: lines.map((l) => l.text).join('\n') });
  }
  await doc.destroy();
  return pages;
}

/** A Buffer's bytes as the ArrayBuffer readers such as exceljs take. */
export const arrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
