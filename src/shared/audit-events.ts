/**
 * The audit trail's contract: every mutation records one of these (design section 5).
 * `before` and `after` hold the changed entity's safe fields, never secrets.
 */
export type AuditEventInput =
  | { action: "account.registered"; entityType: "firm"; after: Record<string, unknown> }
  | { action: "session.signed_in"; entityType: "user" }
  | { action: "session.signed_out"; entityType: "user" }
  | { action: "user.password_changed"; entityType: "user" }
  | { action: "user.created"; entityType: "user"; after: Record<string, unknown> }
  | { action: "user.updated"; entityType: "user"; before: Record<string, unknown>; after: Record<string, unknown> }
  | {
      action: "user.clients_assigned";
      entityType: "user";
      before: { clientIds: string[] };
      after: { clientIds: string[] };
    };

export type AuditAction = AuditEventInput["action"];
