// Whole numbers (cents) packed for a protobuf `bytes` field: little-endian IEEE-754 doubles, exact for
// integers below 2^53. Coding thousands of report amounts this way is one copy, where a repeated numeric
// field costs protobuf-es a call and an allocation per value.

const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

export function packWholeNumbers(values: readonly number[]): Uint8Array {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe whole number: ${v}`);
  if (LITTLE_ENDIAN) return new Uint8Array(Float64Array.from(values).buffer);
  const view = new DataView(new ArrayBuffer(values.length * 8));
  values.forEach((v, i) => view.setFloat64(i * 8, v, true));
  return new Uint8Array(view.buffer);
}

export function unpackWholeNumbers(bytes: Uint8Array): number[] {
  if (bytes.byteLength % 8 !== 0) throw new RangeError(`packed numbers: ${bytes.byteLength} bytes is not a multiple of 8`);
  const n = bytes.byteLength / 8;
  // A decoded message's bytes may sit at any offset of a larger buffer; Float64Array needs 8-byte alignment.
  if (LITTLE_ENDIAN && bytes.byteOffset % 8 === 0) return Array.from(new Float64Array(bytes.buffer, bytes.byteOffset, n));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: n }, (_, i) => view.getFloat64(i * 8, true));
}
