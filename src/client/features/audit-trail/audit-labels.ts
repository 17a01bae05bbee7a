import type { AuditAction } from "../../../shared/audit-events";
import type { AuditEntity, AuditEvent, AuditVerdict } from "../../../shared/reports";

/** What each recorded action reads as in the trail: a short sentence in the past tense. */
export const actionLabels: Record<AuditAction, string> = {
  "account.registered": "Created the firm's account",
  "session.signed_in": "Signed in",
  "session.signed_out": "Signed out",
  "user.password_changed": "Changed their password",
  "mfa.factor_added": "Added a sign-in factor",
  "mfa.factor_removed": "Removed a sign-in factor",
  "mfa.recovery_code_used": "Used a recovery code",
  "mfa.recovery_codes_replaced": "Made new recovery codes",
  "mfa.factors_reset": "Reset a user's sign-in factors",
  "firm.mfa_policy_changed": "Changed the firm's sign-in policy",
  "calendar_feed.created": "Turned on their calendar feed",
  "calendar_feed.address_replaced": "Replaced their calendar feed's address",
  "calendar_feed.updated": "Changed their calendar feed",
  "calendar_feed.revoked": "Turned off their calendar feed",
  "user.created": "Created user",
  "user.updated": "Changed user",
  "user.clients_assigned": "Assigned clients to user",
  "client.created": "Created client",
  "client.updated": "Changed client",
  "client.archived": "Archived client",
  "client.restored": "Restored client",
  "client.purged": "Deleted client for good",
  "contact.created": "Added contact",
  "contact.updated": "Changed contact",
  "contact.deleted": "Deleted contact",
  "task.created": "Created task",
  "task.updated": "Changed task",
  "task.deleted": "Deleted task",
  "task.completed": "Completed task",
  "task.extension_filed": "Filed an extension",
  "task.due_date_changed": "Changed a statutory due date",
  "disaster_relief.recorded": "Recorded a disaster relief",
  "template.created": "Created template",
  "template.updated": "Changed template",
  "template.deleted": "Deleted template",
  "firm.updated": "Changed firm settings",
  "client_import.committed": "Imported clients from a file",
  "client_import.undone": "Undid a client import",
  "billing.plan_changed": "Changed the plan",
  "billing.subscription_updated": "Subscription updated by the payment provider",
};

/** An action recorded by a later version than this screen still reads sensibly. */
export function actionLabel(action: string): string {
  return Object.hasOwn(actionLabels, action) ? actionLabels[action as AuditAction] : action;
}

export const entityLabels: Record<AuditEntity, string> = {
  firm: "Firm",
  user: "User",
  client: "Client",
  contact: "Contact",
  task: "Task",
  template: "Template",
};

/** The entity's name as the event recorded it (after a change, else before), when it has one. */
export function entityName(event: Pick<AuditEvent, "before" | "after">): string | null {
  for (const side of [event.after, event.before]) {
    if (side !== null && typeof side === "object") {
      const record = side as Record<string, unknown>;
      for (const key of ["name", "fullName", "username"]) {
        const value = record[key];
        if (typeof value === "string" && value.trim()) return value;
      }
    }
  }
  return null;
}

/** "Chrome on macOS": the browser and system a user agent names, or its start when it names neither. */
export function shortUserAgent(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = [
    [/Edg\//, "Edge"],
    [/OPR\//, "Opera"],
    [/Firefox\//, "Firefox"],
    [/HeadlessChrome\//, "Headless Chrome"],
    [/Chrom(e|ium)\//, "Chrome"],
    [/Safari\//, "Safari"],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined;
  const system = [
    [/Android/, "Android"],
    [/iPhone|iPad|iPod/, "iOS"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined;
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return (browser ?? system) as string;
  return userAgent.length > 40 ? `${userAgent.slice(0, 40)}…` : userAgent;
}

const count = (events: number) => `${events.toLocaleString("en-US")} ${events === 1 ? "event" : "events"}`;

/** The chain's verdict as the banner says it; `formatTime` shows an instant in the firm's zone. */
export function verificationSummary(
  result: AuditVerdict,
  formatTime: (iso: string) => string,
): { title: string; detail: string } {
  if (result.intact) {
    const detail =
      result.events === 0
        ? "No events recorded yet."
        : result.events === 1
          ? "The 1 event verified: it was not changed or removed."
          : `All ${count(result.events)} verified: none was changed or removed.`;
    return { title: "Intact", detail };
  }
  if ("missing" in result) {
    const { fromSeq, toSeq } = result.missing;
    const removed = toSeq - fromSeq + 1;
    return {
      title: fromSeq === toSeq ? `Event #${fromSeq} missing` : `Events #${fromSeq} to #${toSeq} missing`,
      detail:
        `The trail ends at event #${fromSeq - 1}, but ${removed === 1 ? "1 newer event was" : `${removed.toLocaleString("en-US")} newer events were`} ` +
        `recorded: ${removed === 1 ? "it was" : "they were"} removed. The ${count(result.events)} before verified intact.`,
    };
  }
  const { brokenAt, reason } = result;
  const event = `"${actionLabel(brokenAt.action)}" recorded ${formatTime(brokenAt.createdAt)}`;
  const what = {
    changed: `${event} was changed, or an event before it was removed.`,
    rewritten: `${event} is not the newest event the app recorded: the trail was rewritten at or before it.`,
    added: `${event} was not written by the app.`,
  }[reason];
  return {
    title: `Broken at event #${brokenAt.seq}`,
    detail: `${what} The ${count(result.events)} before it verified intact.`,
  };
}

/**
 * What the quick check read, when it went on from the checkpoint: the events before it were
 * verified by an earlier check and are read again only by the full re-verification. Null when
 * it read the whole trail.
 */
export function quickCheckScope(from: number): string | null {
  if (from <= 1) return null;
  return (
    `This check read the events from #${from.toLocaleString("en-US")} on. The ${count(from - 1)} before were ` +
    "verified by an earlier check; verify the whole trail to read them again."
  );
}

/** A full re-verification's progress: "Verified 20,000 of 300,000 events". */
export function fullProgressLabel(events: number, total: number | null): string {
  if (total === null) return "Starting...";
  return `Verified ${events.toLocaleString("en-US")} of ${count(total)}`;
}
