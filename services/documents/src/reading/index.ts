// Reading a document: its text (a PDF's text layer, or OCR of an image) and the fields its kind needs, each with a
// confidence (0–1). A PDF without a text layer (a scan) is refused with UnreadableDocumentError, as is a file the
// readers cannot open; the caller (the bulk-upload job) reports the file as failed.
import { extractFields, type DocumentKind, type FieldName, type ReadLineItem } from './extract.js';
import { ocrImage, type OcrOptions } from './ocr.js';
import { pdfText } from './pdf-text.js';

export type { DocumentKind, FieldName, ReadLineItem } from './extract.js';
export { extractFields } from './extract.js';

export type ReadableMime = 'application/pdf' | 'image/png' | 'image/jpeg';
export const READABLE_MIMES: readonly ReadableMime[] = ['application/pdf', 'image/png', 'image/jpeg'];

export interface ReadInput {
  bytes: Uint8Array;
  mime: ReadableMime;
  kind: DocumentKind;
}

export interface ReadResult {
  text: string;
  /** Where the text came from: the PDF's text layer or OCR of an image. */
  source: 'pdf-text' | 'ocr';
  merchant?: string;
  date?: string;
  total?: number;
  currency?: string;
  vendorOrCustomer?: string;
  invoiceNumber?: string;
  dueDate?: string;
  lines?: ReadLineItem[];
  confidence: Partial<Record<FieldName, number>>;
}

export type ReadOptions = OcrOptions;

/** A PDF's text layer shorter than this (letters) is taken as a scan with no text. */
const MIN_PDF_LETTERS = 12;

export class UnreadableDocumentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableDocumentError';
  }
}

export async function readDocument(input: ReadInput, options: ReadOptions = {}): Promise<ReadResult> {
  const { bytes, mime, kind } = input;
  if (!READABLE_MIMES.includes(mime)) throw new UnreadableDocumentError(`Cannot read ${String(mime)}: only ${READABLE_MIMES.join(', ')}`);
  let text: string;
  let source: ReadResult['source'];
  let lineConfidence: number[] | undefined;
  try {
    if (mime === 'application/pdf') {
      text = await pdfText(bytes);
      source = 'pdf-text';
      if ((text.match(/\p{L}/gu) ?? []).length < MIN_PDF_LETTERS) {
        throw new UnreadableDocumentError('The PDF has no text layer (a scan); upload it as an image to have it read');
      }
    } else {
      const ocr = await ocrImage(bytes, options);
      text = ocr.text;
      source = 'ocr';
      lineConfidence = ocr.lines.map((l) => l.confidence);
    }
  } catch (e) {
    if (e instanceof UnreadableDocumentError) throw e;
    throw new UnreadableDocumentError(`The ${mime === 'application/pdf' ? 'PDF' : 'image'} could not be read: ${(e as Error).message}`, { cause: e });
  }
  const fields = extractFields(text, kind);
  const confidence: ReadResult['confidence'] = {};
  for (const [field, c] of Object.entries(fields.confidence) as Array<[FieldName, number]>) {
    const line = fields.sourceLine[field];
    // OCR: how sure the rule is, times how sure tesseract was of the words on that line (the text's lines are
    // the OCR lines, in order).
    const ocr = lineConfidence && line !== undefined ? (lineConfidence[line] ?? 1) : 1;
    confidence[field] = Math.round(c * ocr * 100) / 100;
  }
  const { confidence: _c, sourceLine: _s, ...values } = fields;
  return { text, source, ...values, confidence };
}
