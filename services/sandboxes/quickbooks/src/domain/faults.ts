// QuickBooks Online's error bodies: `{ Fault: { Error: [{ Message, Detail, code, element }], type }, time }`.
// The codes and messages are the ones QBO answers for the same mistakes (see the package README's table).

export type FaultType = 'ValidationFault' | 'AUTHENTICATION' | 'AuthorizationFault' | 'SystemFault' | 'SERVICE';

export interface FaultError {
  Message: string;
  Detail: string;
  code: string;
  element?: string;
}

export class QboFault extends Error {
  constructor(
    readonly status: number,
    readonly type: FaultType,
    readonly errors: FaultError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors[0]?.Detail ?? 'fault');
  }

  body(time: string): { Fault: { Error: FaultError[]; type: FaultType }; time: string } {
    return { Fault: { Error: this.errors, type: this.type }, time };
  }
}

const validation = (code: string, message: string, detail: string, element = ''): QboFault =>
  new QboFault(400, 'ValidationFault', [{ Message: message, Detail: detail, code, element }]);

export const faults = {
  /** 2020: a required field is missing. */
  required: (field: string): QboFault =>
    validation('2020', 'Required param missing, need to supply the required value for the API', `Required parameter ${field} is missing in the request`, field),
  /** 2010: a property QBO does not know, or a value of the wrong type. */
  invalidProperty: (field: string, detail?: string): QboFault =>
    validation('2010', 'Request has invalid or unsupported property', detail ?? `Property Name:${field} specified is unsupported or invalid`, field),
  /** 2050: a value too long. */
  tooLong: (field: string, max: number): QboFault =>
    validation('2050', 'Length exceeds the limit', `Length of the field exceeds the limit: ${field} (max ${max})`, field),
  /** 2500: a value QBO cannot parse (a number with more than two decimals, a date that is not YYYY-MM-DD). */
  invalidValue: (field: string, detail: string): QboFault => validation('2500', 'Invalid Reference Id', detail, field),
  /** 610: the id of nothing (or of an inactive name) in this company. */
  notFound: (what = ''): QboFault =>
    validation(
      '610',
      'Object Not Found',
      `Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees.${what ? ` (${what})` : ''}`,
    ),
  /** 5010: the SyncToken is not the current one. */
  stale: (): QboFault =>
    validation(
      '5010',
      'Stale Object Error',
      'Stale Object Error : You and another user were working on this at the same time. They finished before you did, so your work was not saved.',
    ),
  /** 6240: a name already used by a customer, vendor or employee (or an account name in use). */
  duplicateName: (id: string): QboFault => validation('6240', 'Duplicate Name Exists Error', `The name supplied already exists. : Id=${id}`),
  /** 6000: any other business rule. */
  business: (detail: string): QboFault =>
    validation('6000', 'A business validation error has occurred while processing your request', `Business Validation Error: ${detail}`),
  /** 6070: a sales line whose Amount is not UnitPrice × Qty. */
  amountMismatch: (path: string, supplied: number): QboFault =>
    validation('6070', 'Amount is not equal to UnitPrice * Qty', `${path} is not equal to UnitPrice * Qty. Supplied value:${supplied}`, path),
  unsupportedOperation: (operation: string): QboFault => validation('500', 'Unsupported Operation', `Operation ${operation} is not supported.`),
  queryParse: (detail: string): QboFault => validation('4000', 'Error parsing query', `QueryParserError: ${detail}`),
  queryValidation: (detail: string): QboFault => validation('4001', 'Invalid query', `QueryValidationError: ${detail}`),
  badRequest: (detail: string): QboFault => validation('2010', 'Request has invalid or unsupported property', detail),
  authentication: (detail: string): QboFault =>
    new QboFault(401, 'AUTHENTICATION', [{ Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401', Detail: detail, code: '3200' }], {
      'WWW-Authenticate': 'Bearer realm="Intuit", error="invalid_token"',
    }),
  authorization: (): QboFault =>
    new QboFault(403, 'AuthorizationFault', [
      {
        Message: 'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403',
        Detail: 'The token is not authorized for this company (realmId).',
        code: '3100',
      },
    ]),
  throttled: (retryAfterSeconds: number): QboFault =>
    new QboFault(
      429,
      'SERVICE',
      [{ Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429', Detail: 'The request limit was reached.', code: '3001' }],
      {
        'Retry-After': String(retryAfterSeconds),
      },
    ),
  notFoundPath: (path: string): QboFault =>
    new QboFault(404, 'SystemFault', [{ Message: 'Resource not found', Detail: `No resource at ${path}`, code: '404' }]),
  internal: (): QboFault =>
    new QboFault(500, 'SystemFault', [
      { Message: 'An application error has occurred while processing your request', Detail: 'System Failure Error: internal', code: '10000' },
    ]),
  unavailable: (): QboFault =>
    new QboFault(503, 'SystemFault', [{ Message: 'Service Unavailable', Detail: 'The service is temporarily unavailable.', code: '3003' }]),
};
