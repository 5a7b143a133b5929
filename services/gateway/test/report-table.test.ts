// The reporting service sends a report as one flat table (see ReportTable in reporting.proto); the gateway
// turns it back into the account tree. Encoded and decoded over the wire format, as the RPC carries it.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { packWholeNumbers, unpackWholeNumbers } from '@ledgerline/platform';
import { GetProfitLossResponseSchema, ReportTableSchema, RowType } from '@ledgerline/proto/reporting/v1/reporting_pb';
import { describe, expect, it } from 'vitest';
import { reportRows } from '../src/reporting/present.js';

describe('report table', () => {
  it('whole cents survive packing, negative and up to 2^53, from any byte offset', () => {
    const values = [0, 1, -1, 12_345_678_901, -(2 ** 53 - 1), 2 ** 53 - 1];
    const packed = packWholeNumbers(values);
    expect(unpackWholeNumbers(packed)).toEqual(values);
    const shifted = new Uint8Array(packed.length + 3);
    shifted.set(packed, 3);
    expect(unpackWholeNumbers(shifted.subarray(3))).toEqual(values);
    expect(() => packWholeNumbers([0.5])).toThrow(RangeError);
    expect(() => packWholeNumbers([2 ** 53])).toThrow(RangeError);
  });

  it('rows come back as the tree, in order, with their amounts per column', () => {
    // Income > Sales, Income > Services > Consulting; Net Income a summary at the top.
    const table = create(ReportTableSchema, {
      ids: ['i', 's', 'v', 'c', ''],
      names: ['Income', 'Sales', 'Services', 'Consulting', 'Net Income'],
      coaIds: [40000, 40100, 40200, 40210, 0],
      types: ['Income', 'Income', 'Income', 'Income', ''],
      levels: [1, 2, 2, 3, 0],
      groups: [],
      tags: ['', '', 'svc', 'svc', ''],
      rowTypes: [RowType.SECTION, RowType.ACCOUNT, RowType.ACCOUNT, RowType.ACCOUNT, RowType.SUMMARY],
      parents: [-1, 0, 0, 2, -1],
      amountsCents: packWholeNumbers([300, 450, 100, 0, 200, 450, 200, 450, 300, 450]),
      totalsCents: packWholeNumbers([750, 100, 650, 650, 750]),
    });
    const wire = toBinary(GetProfitLossResponseSchema, create(GetProfitLossResponseSchema, { table }));
    const rows = reportRows(fromBinary(GetProfitLossResponseSchema, wire).table, 2);
    expect(rows.map((r) => r.name)).toEqual(['Income', 'Net Income']);
    expect(rows[0]).toMatchObject({
      id: 'i',
      coaId: 40000,
      type: 'Income',
      level: 1,
      rowType: 'section',
      amountsCents: [300, 450],
      totalCents: 750,
      group: '',
      tag: '',
    });
    expect(rows[0]?.children.map((r) => [r.name, r.amountsCents, r.tag])).toEqual([
      ['Sales', [100, 0], ''],
      ['Services', [200, 450], 'svc'],
    ]);
    expect(rows[0]?.children[1]?.children.map((r) => [r.name, r.level, r.rowType, r.amountsCents, r.totalCents])).toEqual([
      ['Consulting', 3, 'account', [200, 450], 650],
    ]);
    expect(rows[1]).toMatchObject({ id: '', coaId: 0, type: '', rowType: 'summary', amountsCents: [300, 450], children: [] });
  });

  it('a table whose amounts do not fit its rows and columns is refused, not misread', () => {
    const table = create(ReportTableSchema, {
      ids: ['a'],
      names: ['A'],
      coaIds: [1],
      types: ['Income'],
      levels: [1],
      rowTypes: [RowType.SECTION],
      parents: [-1],
      amountsCents: packWholeNumbers([1, 2, 3]),
      totalsCents: packWholeNumbers([6]),
    });
    expect(() => reportRows(table, 2)).toThrow(/1 rows × 2 columns/);
  });
});
