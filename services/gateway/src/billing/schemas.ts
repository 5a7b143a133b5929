/** The REST shapes of the billing service's routes, as JSON Schema (the OpenAPI document is made from them). */
export const BillingRecordSchema = {
  $id: 'BillingRecord',
  type: 'object',
  description: 'A record of the billing service.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    title: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'title', 'createdAt'],
  additionalProperties: false,
} as const;

export const CreateRecordBodySchema = {
  type: 'object',
  // Shape only (as every body, services/gateway/src/http/schemas.ts): the service owns the rules and their messages.
  properties: { title: { type: 'string', maxLength: 200, description: 'What the record is called: 1 to 200 characters, not only spaces.' } },
  additionalProperties: false,
} as const;

/** Registered before the routes (OpenAPI names them `#/components/schemas/<$id>`). */
export const BILLING_SCHEMAS = [BillingRecordSchema] as const;
