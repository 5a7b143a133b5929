// Text from an image with Debian's tesseract (the `tesseract` program of tesseract-ocr, English data from
// tesseract-ocr-eng): the image goes in on stdin and the words come out on stdout as TSV, so no temporary file is
// written; a timeout kills a run that hangs. Before that the image is cleaned up with sharp (libvips): photographs
// of paper are grey, low in contrast, speckled and small; tesseract reads black text on white at ~300 dpi best.
import { spawn } from 'node:child_process';
import sharp from 'sharp';

export interface OcrLine {
  text: string;
  confidence: number;
}
export interface OcrResult {
  text: string;
  lines: OcrLine[];
  confidence: number;
}

export interface OcrOptions {
  /** Milliseconds before the tesseract run is killed (default 60 s). */
  timeoutMs?: number;
  /** The tesseract program (default `tesseract` on PATH; TESSERACT_PATH overrides). */
  command?: string;
}

/** Above this many pixels an image is scaled down first (a 48-megapixel photo is not needed to read a receipt). */
const MAX_PIXELS = 12_000_000;
/** The widest skew (degrees) looked for; a photo tilted more is read as it is. */
const MAX_SKEW = 5;

/**
 * The image as tesseract reads it best, dark text on flat white and level: EXIF rotation applied, grey, tiny
 * images scaled up and huge ones down, a 3×3 median and a light blur against speckle noise, the lighting flattened
 * (each pixel divided by the local background, a wide blur of the image), the skew measured and undone. It stays
 * grey: tesseract's LSTM reader was trained on grey text lines, and binarising here (Otsu) lost thin strokes
 * (":" read as ".", digits dropped). Without the flattening tesseract found no text at all on the noisy test
 * images; without the deskew the right-hand columns (amounts) of a tilted page fall onto the wrong lines.
 */
export async function prepareForOcr(bytes: Uint8Array): Promise<Buffer> {
  const meta = await sharp(bytes, { limitInputPixels: 200_000_000 }).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  let target = width;
  if (width > 0 && width < 800) target = width * 2;
  else if (width * height > MAX_PIXELS) target = Math.round(width * Math.sqrt(MAX_PIXELS / (width * height)));
  let img = sharp(bytes, { limitInputPixels: 200_000_000 }).rotate().grayscale();
  if (target !== width) img = img.resize({ width: target, kernel: 'lanczos3' });
  // One grey channel throughout (`b-w`): raw buffers are handed back and forth with their size.
  const { data, info } = await img.median(3).blur(1.2).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: 1 as const };
  // The background: a wide blur, taken on an eighth-size copy (the lighting changes slowly; 64× less work).
  const smallWidth = Math.max(8, Math.round(info.width / 8));
  const smallBg = await sharp(data, { raw }).resize({ width: smallWidth }).blur(3).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const background = await sharp(smallBg.data, { raw: { width: smallBg.info.width, height: smallBg.info.height, channels: 1 } })
    .resize({ width: info.width, height: info.height, fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const flat = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) flat[i] = Math.min(255, Math.round((data[i]! / Math.max(1, background[i]!)) * 245));
  const angle = await skewAngle(flat, info.width, info.height);
  let out = sharp(flat, { raw });
  if (Math.abs(angle) >= 0.2) out = out.rotate(-angle, { background: { r: 255, g: 255, b: 255 } });
  return out.withMetadata({ density: 300 }).png({ compressionLevel: 1 }).toBuffer();
}

/**
 * The page's tilt in degrees (clockwise positive), by the projection profile: rotated by the right angle, the
 * rows of text line up and the count of dark pixels per row swings most between text and gaps. Measured on a
 * small copy (400 px wide), steps of 1° then 0.25° around the best.
 */
export async function skewAngle(grey: Buffer, width: number, height: number): Promise<number> {
  const small = await sharp(grey, { raw: { width, height, channels: 1 } })
    .resize({ width: 400 })
    .threshold(160)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const smallRaw = { width: small.info.width, height: small.info.height, channels: 1 as const };
  const score = async (deg: number) => {
    const { data, info } = await sharp(small.data, { raw: smallRaw })
      .rotate(-deg, { background: '#ffffff' })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const channels = info.channels;
    let prev = -1;
    let sum = 0;
    for (let y = 0; y < info.height; y++) {
      let dark = 0;
      for (let x = 0; x < info.width; x++) if (data[(y * info.width + x) * channels]! < 128) dark++;
      if (prev >= 0) sum += (dark - prev) ** 2;
      prev = dark;
    }
    return sum;
  };
  const best = async (angles: number[]) => {
    let top = { angle: 0, s: -1 };
    for (const a of angles) {
      const s = await score(a);
      if (s > top.s) top = { angle: a, s };
    }
    return top.angle;
  };
  const coarse = await best(Array.from({ length: 2 * MAX_SKEW + 1 }, (_, i) => -MAX_SKEW + i));
  return best([-0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75].map((d) => coarse + d));
}

/** Run tesseract on the prepared image; lines rebuilt from its TSV words with each line's mean word confidence (0–1). */
export async function ocrImage(bytes: Uint8Array, options: OcrOptions = {}): Promise<OcrResult> {
  const prepared = await prepareForOcr(bytes);
  const tsv = await runTesseract(prepared, options);
  return parseTsv(tsv);
}

function runTesseract(input: Buffer, { timeoutMs = 60_000, command = process.env.TESSERACT_PATH || 'tesseract' }: OcrOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    // --psm 6: the page as one block of text, so side-by-side columns (From / To, a label and its amount) stay on
    // one line (psm 4 and 3 split them and lost the amounts of some totals); one thread per run
    // (OMP_THREAD_LIMIT) so parallel runs share the cores instead of fighting for them.
    const child = spawn(command, ['stdin', 'stdout', '-l', 'eng', '--psm', '6', '-c', 'preserve_interword_spaces=1', 'tsv'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(new Error(`tesseract could not be started (${e.message}); install Debian's tesseract-ocr and tesseract-ocr-eng`)));
    child.on('close', (code, signal) => {
      if (signal) reject(new Error(`tesseract stopped (${signal}${signal === 'SIGKILL' ? `, after ${timeoutMs} ms` : ''})`));
      else if (code !== 0) reject(new Error(`tesseract failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 300)}`));
      else resolve(Buffer.concat(out).toString('utf8'));
    });
    // A reader that dies early closes stdin: that is reported by 'close', not thrown here.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** Tesseract's TSV (level, page, block, par, line, word, left, top, width, height, conf, text) as lines of words; a wide gap between words becomes two spaces. */
export function parseTsv(tsv: string): OcrResult {
  interface Word {
    left: number;
    right: number;
    height: number;
    conf: number;
    text: string;
  }
  const byLine = new Map<string, Word[]>();
  const order: string[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c.slice(11).join('\t').trim();
    if (text === '') continue;
    const key = `${c[1]}.${c[2]}.${c[3]}.${c[4]}`;
    if (!byLine.has(key)) {
      byLine.set(key, []);
      order.push(key);
    }
    const left = Number(c[6]),
      width = Number(c[8]);
    byLine.get(key)!.push({ left, right: left + width, height: Number(c[9]), conf: Math.max(0, Number(c[10])) / 100, text });
  }
  const lines: OcrLine[] = order.map((k) => {
    const words = byLine.get(k)!.sort((a, b) => a.left - b.left);
    let text = '';
    words.forEach((w, i) => {
      if (i > 0) text += w.left - words[i - 1]!.right > 1.5 * w.height ? '  ' : ' ';
      text += w.text;
    });
    const chars = words.reduce((n, w) => n + w.text.length, 0);
    const confidence = words.reduce((n, w) => n + w.conf * w.text.length, 0) / Math.max(1, chars);
    return { text, confidence };
  });
  const chars = lines.reduce((n, l) => n + l.text.length, 0);
  const confidence = lines.reduce((n, l) => n + l.confidence * l.text.length, 0) / Math.max(1, chars);
  return { text: lines.map((l) => l.text).join('\n'), lines, confidence };
}
