import type { FastifyInstance, FastifyReply } from 'fastify';
import { contentDisposition, CONTENT_TYPES, exportFileName } from '../../exports/files.js';
import { invoiceNumber, invoicePdf } from '../../exports/invoice-pdf.js';
import { authOf, READ } from '../../http/auth.js';
import { ErrorResponseSchema, ref, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { DocumentsClient } from '../client.js';
import type { IdentityClient } from '../../identity/client.js';

const idParams = { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'], additionalProperties: false } as const;

/**
 * GET /invoice/{id}/pdf (spec documents-parties-integrations §2, §7; issue #18 item 3): the invoice as a PDF a customer
 * can be sent, laid out here like every other export (decision 0004). The invoice comes from the documents service with
 * the caller's tenancy (another workspace's: its 404 naming `id`); the issuing company is the invoice's companyName /
 * companyAddress, else the current workspace's name and address from its profile (identity, the Entities settings).
 */
export function registerInvoicePdfRoute(app: FastifyInstance, { client, identity }: { client: DocumentsClient; identity: IdentityClient }): void {
  app.get<{ Params: { id: string } }>(
    '/invoice/:id/pdf',
    {
      config: READ,
      schema: {
        tags: ['documents'],
        security: [{ bearerAuth: [] }],
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'downloadInvoicePdf',
        summary:
          'The invoice as a PDF: company, customer, lines with quantity, rate and amount, totals, invoice and due date (file name in content-disposition)',
        params: idParams,
        response: {
          200: { description: 'The invoice, as an attachment.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          default: ref(ErrorResponseSchema),
        },
      },
    },
    async (req, reply: FastifyReply) => {
      const auth = authOf(req);
      const d = (await client.getDocument({ kind: 'invoice', id: req.params.id }, { headers: auth.rpcHeaders })).document;
      if (!d) throw new Error('the documents service answered no invoice');
      let companyName = d.companyName;
      let companyAddress = d.companyAddress;
      if (!companyName || !companyAddress) {
        const workspaces = (await identity.listWorkspaces({ sessionToken: auth.token }, { headers: auth.rpcHeaders })).workspaces;
        const profile = workspaces.find((w) => w.id === auth.workspace?.id);
        companyName ||= profile?.name || auth.workspace?.name || '';
        companyAddress ||= profile?.address ?? '';
      }
      const pdf = await invoicePdf({
        invoiceId: d.id,
        referenceNo: d.reference,
        invoiceDate: d.date,
        dueDate: d.dueDate,
        companyName,
        companyAddress,
        customerName: d.party?.name ?? '',
        description: d.description,
        lines: d.lines.map((l) => ({ serviceName: l.serviceName, quantity: l.quantity, rateCents: l.rateCents, amountCents: l.amountCents })),
        totalCents: d.totalCents,
        paidCents: d.paidCents,
        voided: d.voided,
      });
      const fileName = exportFileName('invoice', [invoiceNumber({ invoiceId: d.id, referenceNo: d.reference }), d.date], 'pdf');
      return reply.type(CONTENT_TYPES.pdf).header('content-disposition', contentDisposition(fileName)).header('cache-control', 'no-store').send(pdf);
    },
  );
}
