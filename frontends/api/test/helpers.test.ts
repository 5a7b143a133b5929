import { describe, expect, it } from 'vitest';
import { buildUrl, extractError, fileNameFromContentDisposition, fileNameFromHeaders } from '../src/index';

describe('buildUrl', () => {
  it('keeps only non-empty parameters and comma-joins lists', () => {
    expect(
      buildUrl('/transactions/v2', {
        page: 1,
        take: 20,
        categories: ['a', 'b'],
        tags: [],
        billerName: '',
        accountId: undefined,
        x: null,
        excludeZeroes: false,
      }),
    ).toBe('/transactions/v2?page=1&take=20&categories=a%2Cb&excludeZeroes=false');
    expect(buildUrl('/accounts', { a: '' })).toBe('/accounts');
    expect(buildUrl('/accounts')).toBe('/accounts');
  });
});

describe('fileName helpers', () => {
  it('reads filename*, filename and the file-name header', () => {
    expect(fileNameFromContentDisposition(`attachment; filename*=UTF-8''P%26L%202024.pdf`)).toBe('P&L 2024.pdf');
    expect(fileNameFromContentDisposition('attachment; filename=report.xlsx')).toBe('report.xlsx');
    expect(fileNameFromContentDisposition('attachment')).toBeUndefined();
    expect(fileNameFromHeaders(new Headers({ 'file-name': 'a.csv', 'content-disposition': 'attachment; filename="b.csv"' }))).toBe('a.csv');
  });
});

describe('extractError', () => {
  it('falls back to the body status when there is no HTTP status', () => {
    expect(extractError(undefined, { message: 'Nope', statusCode: 403 })).toMatchObject({ message: 'Nope', statusCode: 403 });
    expect(extractError(400, { errors: [], message: '' })).toMatchObject({ message: 'Something went wrong', statusCode: 500 });
  });
});
