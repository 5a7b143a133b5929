const unquote = (value: string): string => value.trim().replace(/^"(.*)"$/, '$1');

/** The download's file name: a `file-name` header, else `content-disposition` (RFC 6266, `filename*` first). */
export function fileNameFromHeaders(headers: Headers): string | undefined {
  const direct = headers.get('file-name');
  if (direct !== null && direct.trim() !== '') return unquote(direct);
  const disposition = headers.get('content-disposition');
  return disposition === null ? undefined : fileNameFromContentDisposition(disposition);
}

export function fileNameFromContentDisposition(disposition: string): string | undefined {
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(disposition)?.[1];
  if (extended !== undefined) {
    const encoded = unquote(extended).replace(/^[\w-]+'[\w-]*'/, '');
    try {
      return decodeURIComponent(encoded);
    } catch {
      return encoded;
    }
  }
  const plain = /filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]+)/i.exec(disposition)?.[1];
  if (plain === undefined) return undefined;
  const name = unquote(plain).replace(/\\(.)/g, '$1');
  return name === '' ? undefined : name;
}
