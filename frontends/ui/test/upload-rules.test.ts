import { describe, expect, it } from 'vitest';
import { filesProgress, formatFileSize, listOfTypes, precheckFile } from '../src/index';

const LIMITS = { extensions: ['jpg', 'jpeg', 'png', 'pdf'], maxBytes: 10 * 1024 * 1024 };

describe('the drop zone pre-check (decision 0029)', () => {
  it('takes jpg, jpeg, png and pdf of any case up to 10 MB', () => {
    for (const name of ['a.jpg', 'b.JPEG', 'c.png', 'd.Pdf', 'many.dots.in.name.pdf']) expect(precheckFile({ name, size: 1000 }, LIMITS)).toBeNull();
    expect(precheckFile({ name: 'exact.png', size: 10 * 1024 * 1024 }, LIMITS)).toBeNull();
  });
  it('refuses other types, empty files and files over the limit, worded as the server words them', () => {
    expect(precheckFile({ name: 'setup.exe', size: 10 }, LIMITS)).toBe('setup.exe is not a jpg, jpeg, png or pdf file');
    expect(precheckFile({ name: 'noextension', size: 10 }, LIMITS)).toBe('noextension is not a jpg, jpeg, png or pdf file');
    expect(precheckFile({ name: 'pdf', size: 10 }, LIMITS)).toBe('pdf is not a jpg, jpeg, png or pdf file');
    expect(precheckFile({ name: 'blank.pdf', size: 0 }, LIMITS)).toBe('blank.pdf is empty');
    expect(precheckFile({ name: 'x.png', size: 10 * 1024 * 1024 + 1 }, LIMITS)).toBe('x.png is larger than 10 MB');
  });
  it('lists the types and sizes as people read them', () => {
    expect(listOfTypes(['pdf'])).toBe('pdf');
    expect(listOfTypes(['png', 'pdf'])).toBe('png or pdf');
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(250 * 1024)).toBe('250 KB');
    expect(formatFileSize(10 * 1024 * 1024)).toBe('10 MB');
  });
});

describe("each file's share of the request's progress", () => {
  it('fills the files in order and reaches 1 for all only when the whole body went', () => {
    // Two files of 100 and 300 bytes in a body of 500 (100 bytes of boundaries and fields).
    expect(filesProgress([100, 300], 0, 500)).toEqual([0, 0]);
    expect(filesProgress([100, 300], 125, 500)).toEqual([1, 0]);
    expect(filesProgress([100, 300], 250, 500)).toEqual([1, 1 / 3]);
    expect(filesProgress([100, 300], 499, 500)[1]).toBeLessThan(1);
    expect(filesProgress([100, 300], 500, 500)).toEqual([1, 1]);
  });
  it('never leaves 0–1, and an unknown total counts the sizes', () => {
    expect(filesProgress([10], 50, 20)).toEqual([1]);
    expect(filesProgress([10, 10], 10, 0)).toEqual([1, 0]);
    expect(filesProgress([], 5, 10)).toEqual([]);
  });
});
