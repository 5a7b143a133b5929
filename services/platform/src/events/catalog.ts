import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  BankConnectionReconnectRequiredSchema,
  BankAccountLinkedSchema,
  BankAccountRemovedSchema,
  BankAccountSyncedSchema,
  BankTransactionRemovedSchema,
  BankTransactionSchema,
  BankTransactionsPageSchema,
} from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { FirmAccessChangedSchema } from '@ledgerline/proto/events/v1/firm_pb';
import {
  InviteAcceptedSchema,
  MemberChangedSchema,
  UserSignedUpSchema,
  WorkspaceCreatedSchema,
  WorkspaceDeletedSchema,
} from '@ledgerline/proto/events/v1/identity_pb';
import {
  CategorizationRequestedSchema,
  ChartChangedSchema,
  EntriesPostedSchema,
  EntryPostedSchema,
  TransactionCategorizedSchema,
  TransactionCommentedSchema,
} from '@ledgerline/proto/events/v1/ledger_pb';
import { CategorizationSuggestedSchema, CustomerChangedSchema, VendorChangedSchema } from '@ledgerline/proto/events/v1/parties_pb';
import { PostingRequestedSchema } from '@ledgerline/proto/events/v1/postings_pb';
import { DocumentsDocumentChangedSchema } from '@ledgerline/proto/events/v1/documents_pb';
import { IntegrationsQuickBooksSyncedSchema, IntegrationsStripeSyncedSchema } from '@ledgerline/proto/events/v1/integrations_pb';
import { NotificationCreatedSchema } from '@ledgerline/proto/events/v1/notifications_pb';
import { BillingPlanChangedSchema } from '@ledgerline/proto/events/v1/billing_pb';
import { newId } from '../ids.js';
import { eventSubject, type EventBus } from './bus.js';

/**
 * The event catalog: every event on the bus, by name. The name is the envelope's `type`, the outbox's
 * `type` column and the subject (`events.<name>`); nowhere else in the code is an event named by a string.
 * A new event is one line here and one in `EVENT_SCHEMAS` (the compiler refuses a name without a message).
 */
export const EventType = {
  /** identity: a user account was created, with its organization and default workspace. */
  UserSignedUp: 'user.signed_up',
  /** identity */
  WorkspaceCreated: 'workspace.created',
  /** identity: a membership was created, changed or removed. */
  MemberChanged: 'member.changed',
  /** identity: a workspace was deleted from its organization (nobody has access to it any more). */
  WorkspaceDeleted: 'workspace.deleted',
  /** ledger: a balanced journal entry was posted. */
  EntryPosted: 'entry.posted',
  /** ledger: the entries of one batch (e.g. a page of bank transactions), in posting order; consumers dedupe per entry id. */
  EntriesPosted: 'entries.posted',
  /** ledger: the workspace's chart of accounts changed. */
  ChartChanged: 'chart.changed',
  /** banking: a bank or card account was linked (or relinked). */
  BankAccountLinked: 'bank_account.linked',
  /** banking: an account was unlinked. */
  BankAccountRemoved: 'bank_account.removed',
  /** banking: a sync of the account's item completed (the bank's side of the tie-out). */
  BankAccountSynced: 'bank_account.synced',
  /** banking: a new bank transaction (its full state). */
  BankTransactionAdded: 'bank_transaction.added',
  /** banking: a bank transaction changed (its full new state). */
  BankTransactionModified: 'bank_transaction.modified',
  /** banking: the provider withdrew a transaction. */
  BankTransactionRemoved: 'bank_transaction.removed',
  /** banking: the changes of one sync page (adds, modifications, removals in order) as one event; consumers dedupe per transaction. */
  BankTransactionsPage: 'bank_transactions.page',
  /** firm: one firm member's complete set of client organizations (full state with a version; identity projects it). */
  FirmAccessChanged: 'firm.access_changed',
  /** parties: a vendor was created, updated, deleted or merged into another (one per merged vendor). */
  VendorChanged: 'vendor.changed',
  /** parties: a customer was created, updated or deleted. */
  CustomerChanged: 'customer.changed',
  /** parties, documents: a document's new version committed; the ledger books it (idempotent by source id + version). */
  PostingRequested: 'posting.requested',
  /** ledger: a user categorised a transaction by hand (the categorisation model learns from it). */
  TransactionCategorized: 'transaction.categorized',
  /** ledger: an import left transactions nobody categorised; a categorisation job waits for suggestions. */
  CategorizationRequested: 'categorization.requested',
  /** parties: the categorisation model's suggestions for a job (the ledger applies those marked apply). */
  CategorizationSuggested: 'categorization.suggested',
  /** documents: a bill, invoice or manual journal was created, changed, voided or deleted. */
  DocumentsDocumentChanged: 'documents.document_changed',
  /** integrations: a sync of the workspace's Stripe account completed. */
  IntegrationsStripeSynced: 'integrations.stripe_synced',
  /** integrations: entities were synced to or un-synced from QuickBooks (their owners set qboSynced). */
  IntegrationsQuickBooksSynced: 'integrations.quickbooks_synced',
  /** identity: an invited user accepted a workspace invite and joined the workspace (the inviter is told). */
  InviteAccepted: 'invite.accepted',
  /** ledger: a user commented on a transaction, tagging members (each tagged member is notified). */
  TransactionCommented: 'transaction.commented',
  /** banking: the bank refused an item's sign-in; its accounts need a user to reconnect them. */
  BankConnectionReconnectRequired: 'bank_connection.reconnect_required',
  /** notifications: a notification for a user was stored (the gateway's live stream tells their bell). */
  NotificationCreated: 'notification.created',
  /** billing: the plan in force in a workspace changed (banking and identity keep its limits). */
  BillingPlanChanged: 'billing.plan_changed',
} as const;

export type EventType = (typeof EventType)[keyof typeof EventType];

/** Each event's payload message (proto package ledgerline.events.v1). */
export const EVENT_SCHEMAS = {
  [EventType.UserSignedUp]: UserSignedUpSchema,
  [EventType.WorkspaceCreated]: WorkspaceCreatedSchema,
  [EventType.MemberChanged]: MemberChangedSchema,
  [EventType.WorkspaceDeleted]: WorkspaceDeletedSchema,
  [EventType.EntryPosted]: EntryPostedSchema,
  [EventType.EntriesPosted]: EntriesPostedSchema,
  [EventType.ChartChanged]: ChartChangedSchema,
  [EventType.BankAccountLinked]: BankAccountLinkedSchema,
  [EventType.BankAccountRemoved]: BankAccountRemovedSchema,
  [EventType.BankAccountSynced]: BankAccountSyncedSchema,
  [EventType.BankTransactionAdded]: BankTransactionSchema,
  [EventType.BankTransactionModified]: BankTransactionSchema,
  [EventType.BankTransactionRemoved]: BankTransactionRemovedSchema,
  [EventType.BankTransactionsPage]: BankTransactionsPageSchema,
  [EventType.FirmAccessChanged]: FirmAccessChangedSchema,
  [EventType.VendorChanged]: VendorChangedSchema,
  [EventType.CustomerChanged]: CustomerChangedSchema,
  [EventType.PostingRequested]: PostingRequestedSchema,
  [EventType.TransactionCategorized]: TransactionCategorizedSchema,
  [EventType.CategorizationRequested]: CategorizationRequestedSchema,
  [EventType.CategorizationSuggested]: CategorizationSuggestedSchema,
  [EventType.DocumentsDocumentChanged]: DocumentsDocumentChangedSchema,
  [EventType.IntegrationsStripeSynced]: IntegrationsStripeSyncedSchema,
  [EventType.IntegrationsQuickBooksSynced]: IntegrationsQuickBooksSyncedSchema,
  [EventType.InviteAccepted]: InviteAcceptedSchema,
  [EventType.TransactionCommented]: TransactionCommentedSchema,
  [EventType.BankConnectionReconnectRequired]: BankConnectionReconnectRequiredSchema,
  [EventType.NotificationCreated]: NotificationCreatedSchema,
  [EventType.BillingPlanChanged]: BillingPlanChangedSchema,
} as const satisfies Record<EventType, DescMessage>;

export type EventSchema<N extends EventType> = (typeof EVENT_SCHEMAS)[N];
/** The decoded payload of an event of type N. */
export type EventMessage<N extends EventType> = MessageShape<EventSchema<N>>;
/** What a publisher gives for an event of type N: the message, or a plain object of its fields. */
export type EventPayload<N extends EventType> = MessageInitShape<EventSchema<N>>;

const KNOWN = new Set<string>(Object.values(EventType));

export function isEventType(type: string): type is EventType {
  return KNOWN.has(type);
}

/**
 * An event as a consumer receives it: the envelope's fields and the payload still encoded (a handler that
 * reads it calls `eventMessage`). A union over the types, so testing `type` narrows the event.
 */
export type ReceivedEvent<N extends EventType = EventType> = N extends EventType
  ? { id: string; type: N; workspaceId: string; source: string; occurredAt: Date; payload: Uint8Array }
  : never;

/** The payload of a received event, decoded with its type's message. */
export function eventMessage<N extends EventType>(event: { type: N; payload: Uint8Array }): EventMessage<N> {
  return fromBinary(EVENT_SCHEMAS[event.type] as DescMessage, event.payload) as EventMessage<N>;
}

/** An event to publish: its type from the catalog, its tenant and its payload (typed by the type). */
export type OutgoingEvent<N extends EventType = EventType> = N extends EventType
  ? {
      type: N;
      workspaceId: string;
      payload: EventPayload<N>;
      /** Deterministic id for idempotent writers; a new UUIDv7 otherwise. */
      id?: string;
    }
  : never;

/** The bytes on the bus: the envelope around the encoded payload. */
export function encodeEvent(source: string, id: string, event: OutgoingEvent, occurredAt = timestampFromDate(new Date())): Uint8Array {
  const schema = EVENT_SCHEMAS[event.type] as DescMessage;
  const payload = toBinary(schema, create(schema, event.payload as MessageInitShape<DescMessage>));
  return toBinary(EventEnvelopeSchema, create(EventEnvelopeSchema, { id, type: event.type, workspaceId: event.workspaceId, occurredAt, source, payload }));
}

/**
 * Publishes an event straight to the bus, as the outbox relay does (envelope, subject, Nats-Msg-Id = event
 * id). Services publish through the outbox (`writeEvent`); this is for tests and tools that play a service
 * that is not running. Returns the event id.
 */
export async function publishEvent(bus: EventBus, source: string, event: OutgoingEvent, msgId?: string): Promise<string> {
  const id = event.id ?? newId();
  await bus.publish(eventSubject(event.type), encodeEvent(source, id, event), { msgId: msgId ?? id });
  return id;
}
