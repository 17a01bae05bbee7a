/**
 * The audit trail's contract: every mutation records one of these (decision 0005).
 * `before` and `after` hold the changed entity's safe fields, never secrets.
 */
export type AuditEventInput =
  | { action: "account.registered"; entityType: "firm"; after: Record<string, unknown> }
  /** With a second factor, which one (`after.secondFactor`); never a code. */
  | { action: "session.signed_in"; entityType: "user"; after?: { secondFactor: string } }
  | { action: "session.signed_out"; entityType: "user" }
  | { action: "user.password_changed"; entityType: "user" }
  /** Multi-factor sign-in (decision 0044): what changed, never a secret or a code. */
  | { action: "mfa.factor_added"; entityType: "user"; after: { kind: string; name: string } }
  | { action: "mfa.factor_removed"; entityType: "user"; before: { kind: string; name: string } }
  | { action: "mfa.recovery_code_used"; entityType: "user"; after: { recoveryCodesLeft: number } }
  | { action: "mfa.recovery_codes_replaced"; entityType: "user" }
  | { action: "mfa.factors_reset"; entityType: "user"; before: { factors: number } }
  | {
      action: "firm.mfa_policy_changed";
      entityType: "firm";
      before: { mfaPolicy: string; requiredFrom: string | null };
      after: { mfaPolicy: string; requiredFrom: string | null };
    }
  /** The user's calendar feed (decision 0047): made, its address replaced, its setting changed, turned off. Never its address. */
  | { action: "calendar_feed.created"; entityType: "user"; after: { hideClientNames: boolean } }
  | { action: "calendar_feed.address_replaced"; entityType: "user" }
  | {
      action: "calendar_feed.updated";
      entityType: "user";
      before: { hideClientNames: boolean };
      after: { hideClientNames: boolean };
    }
  | { action: "calendar_feed.revoked"; entityType: "user"; before: { hideClientNames: boolean } }
  | { action: "user.created"; entityType: "user"; after: Record<string, unknown> }
  | { action: "user.updated"; entityType: "user"; before: Record<string, unknown>; after: Record<string, unknown> }
  | {
      action: "user.clients_assigned";
      entityType: "user";
      before: { clientIds: string[] };
      after: { clientIds: string[] };
    }
  /** The firm's plan, changed by its super admin (with Stripe, the subscription's price too). */
  | {
      action: "billing.plan_changed";
      entityType: "firm";
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    }
  /** Stripe's webhook moved the subscription's status or trial end; recorded with no actor (the system). */
  | {
      action: "billing.subscription_updated";
      entityType: "firm";
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    }
  | WorkAuditEvent;

type Fields = Record<string, unknown>;
export type WorkAuditEvent =
  | { action: "client.created"; entityType: "client"; after: Fields }
  | { action: "client.updated"; entityType: "client"; before: Fields; after: Fields }
  | { action: "client.archived"; entityType: "client"; before: Fields }
  | { action: "client.restored"; entityType: "client"; after: Fields }
  | { action: "client.purged"; entityType: "client"; before: Fields }
  | { action: "contact.created"; entityType: "contact"; after: Fields }
  | { action: "contact.updated"; entityType: "contact"; before: Fields; after: Fields }
  | { action: "contact.deleted"; entityType: "contact"; before: Fields }
  | { action: "task.created"; entityType: "task"; after: Fields }
  | { action: "task.updated"; entityType: "task"; before: Fields; after: Fields }
  | { action: "task.deleted"; entityType: "task"; before: Fields }
  /** A sign-off: who, the printed name and the signature's SHA-256 (the image itself stays on the task). */
  | { action: "task.completed"; entityType: "task"; after: Fields }
  /** An extension filed for a task that follows a statutory rule: its due date before and after. */
  | { action: "task.extension_filed"; entityType: "task"; before: Fields; after: Fields }
  /** A rule task's due day moved by hand, with the reason given. */
  | { action: "task.due_date_changed"; entityType: "task"; before: Fields; after: Fields }
  /** A disaster relief recorded, with how many open tasks it moved. */
  | { action: "disaster_relief.recorded"; entityType: "firm"; after: Fields }
  | { action: "template.created"; entityType: "template"; after: Fields }
  | { action: "template.updated"; entityType: "template"; before: Fields; after: Fields }
  | { action: "template.deleted"; entityType: "template"; before: Fields }
  | { action: "firm.updated"; entityType: "firm"; before: Fields; after: Fields }
  /** A client import (decision 0051): its commit, with what it was to do, and its undo, with what that did. */
  | { action: "client_import.committed"; entityType: "firm"; after: Fields }
  | { action: "client_import.undone"; entityType: "firm"; after: Fields };

export type AuditAction = AuditEventInput["action"];
