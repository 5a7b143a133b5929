import { Readable } from 'node:stream';
import type { ListTransactionsResponse } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { ErrorResponseSchema, ref, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import {
  CSV_BOM,
  csvRow,
  GENERAL_LEDGER_HEADER,
  generalLedgerCsvRow,
  LEDGER_LINES_HEADER,
  ledgerLineCsvRow,
  statementCsv,
  TRANSACTIONS_HEADER,
  transactionCsvRow,
} from '../../exports/csv.js';
import { contentDisposition, CONTENT_TYPES, exportFileName, type ExportFormat } from '../../exports/files.js';
import { statementPdf } from '../../exports/pdf.js';
import { balanceSheetStatement, cashFlowStatement, profitLossStatement, type Statement } from '../../exports/statement.js';
import { statementXlsx } from '../../exports/xlsx.js';
import { checkedWorkspaces, reportQuery } from './reporting.js';
import { REPORT_QUERY, type ReportQueryString } from '../schemas.js';
import type { LedgerClient } from '../../ledger/client.js';
import { transactionFiltersRequest } from '../../ledger/requests.js';
import { TRANSACTION_FILTERS, type TransactionFiltersQuery } from '../../ledger/schemas.js';
import type { ReportingClient } from '../client.js';

const FORMATS = ['csv', 'xlsx', 'pdf'] as const satisfies readonly ExportFormat[];
const FORMAT_NAMES: Record<ExportFormat, string> = { csv: 'Csv', xlsx: 'Xlsx', pdf: 'Pdf' };
/** The ledger's largest page: an export reads every page at this size. */
const PAGE = 100;
const text = { type: 'string', maxLength: 4000 } as const;

/** OpenAPI: a file of one content type; errors keep the one error shape. */
function fileResponse(format: ExportFormat, what: string) {
  return {
    200: {
      description: `${what}, as an attachment (file name in content-disposition).`,
      content: { [CONTENT_TYPES[format].split(';')[0] as string]: { schema: { type: 'string', format: 'binary' } } },
    },
    default: ref(ErrorResponseSchema),
  };
}

function render(s: Statement, format: ExportFormat): Promise<Buffer> | Buffer {
  if (format === 'xlsx') return statementXlsx(s);
  if (format === 'pdf') return statementPdf(s);
  return Buffer.from(statementCsv(s), 'utf8');
}

function sendFile(reply: FastifyReply, format: ExportFormat, fileName: string, body: Buffer | Readable) {
  return reply.type(CONTENT_TYPES[format]).header('content-disposition', contentDisposition(fileName)).header('cache-control', 'no-store').send(body);
}

/**
 * Pages of an export, the first already fetched (so a bad filter or another workspace's id is a plain
 * error answer before any byte of the file is sent), the rest fetched as the client reads.
 */
async function* pages<T>(first: T, next: (page: number, previous: T) => Promise<T> | undefined): AsyncGenerator<T> {
  let page = 1;
  let current: T | undefined = first;
  while (current !== undefined) {
    yield current;
    page += 1;
    current = await next(page, current);
  }
}

/**
 * Spec §7 "Exports" (binary GET): the profit and loss, the balance sheet and the cash-flow statement as CSV, XLSX and PDF, the
 * general ledger and the transactions as CSV. The numbers are the reporting and ledger services' answers
 * (integer cents); this gateway only lays them out (services/reporting/README.md, "Exports"). Viewers export.
 */
export async function registerExportRoutes(app: FastifyInstance, { reporting, ledger }: { reporting: ReportingClient; ledger: LedgerClient }): Promise<void> {
  const common = { tags: ['exports'], security: [{ bearerAuth: [] }], headers: WORKSPACE_HEADER_SCHEMA };
  const rpc = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const entity = (req: FastifyRequest) => authOf(req).workspace?.name ?? '';

  for (const format of FORMATS) {
    app.get<{ Querystring: ReportQueryString }>(
      `/income-expense/${format}`,
      {
        config: READ,
        schema: {
          ...common,
          querystring: REPORT_QUERY,
          operationId: `exportProfitLoss${FORMAT_NAMES[format]}`,
          summary: `The profit and loss (same query as /financial-data/profit-loss/v3) as ${format.toUpperCase()}`,
          response: fileResponse(format, 'The profit and loss'),
        },
      },
      async (req, reply) => {
        const s = profitLossStatement(
          await reporting.getProfitLoss({ query: { ...reportQuery(req.query), workspaces: checkedWorkspaces(req, req.query.workspaces) } }, rpc(req)),
          entity(req),
        );
        return sendFile(reply, format, exportFileName('profit-and-loss', [s.startDate, s.endDate], format), await render(s, format));
      },
    );

    app.get<{ Querystring: ReportQueryString }>(
      `/balance-sheet/${format}`,
      {
        config: READ,
        schema: {
          ...common,
          querystring: REPORT_QUERY,
          operationId: `exportBalanceSheet${FORMAT_NAMES[format]}`,
          summary: `The balance sheet (same query as /financial-data/balance-sheet/v2) as ${format.toUpperCase()}`,
          response: fileResponse(format, 'The balance sheet'),
        },
      },
      async (req, reply) => {
        const s = balanceSheetStatement(
          await reporting.getBalanceSheet({ query: { ...reportQuery(req.query), workspaces: checkedWorkspaces(req, req.query.workspaces) } }, rpc(req)),
          entity(req),
        );
        return sendFile(reply, format, exportFileName('balance-sheet', [s.startDate, s.endDate], format), await render(s, format));
      },
    );

    app.get<{ Querystring: ReportQueryString }>(
      `/cash-flow-statement/${format}`,
      {
        config: READ,
        schema: {
          ...common,
          querystring: REPORT_QUERY,
          operationId: `exportCashFlowStatement${FORMAT_NAMES[format]}`,
          summary: `The cash-flow statement (same query as /financial-data/cash-flow-statement) as ${format.toUpperCase()}`,
          response: fileResponse(format, 'The cash-flow statement'),
        },
      },
      async (req, reply) => {
        const s = cashFlowStatement(
          await reporting.getCashFlowStatement({ query: { ...reportQuery(req.query), workspaces: checkedWorkspaces(req, req.query.workspaces) } }, rpc(req)),
          entity(req),
        );
        return sendFile(reply, format, exportFileName('cash-flow-statement', [s.startDate, s.endDate], format), await render(s, format));
      },
    );
  }

  app.get<{ Querystring: { startDate?: string; endDate?: string; ledgerAccountId?: string } }>(
    '/general-ledger/csv',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'exportGeneralLedgerCsv',
        summary:
          "Every account's opening balance, debits, credits and closing balance for the period as CSV; with ledgerAccountId, that account's lines with running balances",
        querystring: { type: 'object', properties: { startDate: text, endDate: text, ledgerAccountId: text, fetchBankAccountTransaction: text } },
        response: fileResponse('csv', 'The general ledger'),
      },
    },
    async (req, reply) => {
      const { startDate = '', endDate = '', ledgerAccountId = '' } = req.query;
      if (!ledgerAccountId) {
        const r = await ledger.getGeneralLedger({ startDate, endDate }, rpc(req));
        const body = [CSV_BOM, csvRow(GENERAL_LEDGER_HEADER), ...r.data.map(generalLedgerCsvRow)].join('');
        return sendFile(reply, 'csv', exportFileName('general-ledger', [startDate, endDate], 'csv'), Buffer.from(body, 'utf8'));
      }
      const ask = (page: number) => ledger.getLedgerTransactions({ ledgerAccountId, startDate, endDate, page, take: PAGE }, rpc(req));
      const first = await ask(1);
      const account = (await ledger.getGeneralLedger({ startDate, endDate }, rpc(req))).data.find((a) => a.ledgerAccountId === ledgerAccountId);
      const name = account ? `${account.coaId} ${account.name}` : ledgerAccountId;
      async function* csv() {
        yield CSV_BOM + csvRow(LEDGER_LINES_HEADER);
        for await (const p of pages(first, (page, prev) => (prev.meta?.hasNextPage ? ask(page) : undefined))) yield p.data.map(ledgerLineCsvRow).join('');
      }
      return sendFile(reply, 'csv', exportFileName('general-ledger', [name, startDate, endDate], 'csv'), Readable.from(csv()));
    },
  );

  app.get<{ Querystring: TransactionFiltersQuery }>(
    '/transactions/csv',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'exportTransactionsCsv',
        summary: 'Workspace transactions with the filters of GET /transactions/v2, every page, as CSV',
        querystring: TRANSACTION_FILTERS,
        response: fileResponse('csv', 'The transactions'),
      },
    },
    async (req, reply) => {
      const filters = transactionFiltersRequest(req.query);
      const ask = (page: number): Promise<ListTransactionsResponse> => ledger.listTransactions({ ...filters, page, take: PAGE }, rpc(req));
      const first = await ask(1);
      // The list pages by offset: a transaction booked while the file is read moves the rest down a
      // place, so one already written may come again. Each is written once.
      const seen = new Set<string>();
      async function* csv() {
        yield CSV_BOM + csvRow(TRANSACTIONS_HEADER);
        for await (const p of pages(first, (page, prev) => (prev.meta?.hasNextPage ? ask(page) : undefined))) {
          const fresh = p.data.filter((t) => !seen.has(t.id));
          for (const t of fresh) seen.add(t.id);
          yield fresh.map(transactionCsvRow).join('');
        }
      }
      const { startDate = '', endDate = '' } = req.query;
      return sendFile(reply, 'csv', exportFileName('transactions', [startDate, endDate], 'csv'), Readable.from(csv()));
    },
  );
}
