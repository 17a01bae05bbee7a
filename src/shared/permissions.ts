import type { Role } from "./roles";

/**
 * Who may do what: S-ROLE-07..17 as data. Server guards and (later) the UI read this one table.
 * Scope says how far an allowed action reaches: the whole firm, the clients assigned to the
 * user, or only the user themself.
 */
export type Scope = "all" | "assigned" | "self" | "none";

type Policy = { description: string; scope: Record<Role, Scope> };

export const policies = {
  "clients.read": { description: "view clients", scope: { super_admin: "all", admin: "all", user: "assigned" } },
  "clients.write": {
    description: "create or edit clients and contacts",
    scope: { super_admin: "all", admin: "all", user: "none" },
  },
  "clients.purge": {
    description: "delete clients for good",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
  "tasks.create": { description: "create tasks", scope: { super_admin: "all", admin: "all", user: "assigned" } },
  "tasks.complete": { description: "complete tasks", scope: { super_admin: "all", admin: "all", user: "assigned" } },
  "templates.read": { description: "view task templates", scope: { super_admin: "all", admin: "all", user: "all" } },
  "templates.create": {
    description: "create task templates",
    scope: { super_admin: "all", admin: "all", user: "none" },
  },
  "templates.manage": {
    description: "edit or delete task templates",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
  "users.read": { description: "view the firm's users", scope: { super_admin: "all", admin: "all", user: "all" } },
  "users.create": { description: "create users", scope: { super_admin: "all", admin: "all", user: "none" } },
  "users.update": { description: "change users", scope: { super_admin: "all", admin: "all", user: "none" } },
  "assignments.read": {
    description: "view client assignments",
    scope: { super_admin: "all", admin: "all", user: "self" },
  },
  "assignments.write": {
    description: "assign clients to users",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
  "reports.clientAudit": {
    description: "view client audit reports",
    scope: { super_admin: "all", admin: "all", user: "assigned" },
  },
  "reports.userAudit": {
    description: "view user audit reports",
    scope: { super_admin: "all", admin: "all", user: "self" },
  },
  "firm.manage": {
    description: "change the firm's name and time zone",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
  "security.manage": {
    description: "set the firm's sign-in policy and reset users' sign-in factors",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
  "audit.read": {
    description: "view the firm's audit trail",
    scope: { super_admin: "all", admin: "all", user: "none" },
  },
  "mail.read": {
    description: "view the firm's outgoing e-mail",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
  "dueDates.override": {
    description: "move a statutory due date by hand or record a disaster relief",
    scope: { super_admin: "all", admin: "all", user: "none" },
  },
  "billing.manage": {
    description: "manage billing and the plan",
    scope: { super_admin: "all", admin: "none", user: "none" },
  },
} as const satisfies Record<string, Policy>;

export type Action = keyof typeof policies;

export function scopeOf(role: Role, action: Action): Scope {
  return policies[action].scope[role];
}

export function can(role: Role, action: Action): boolean {
  return scopeOf(role, action) !== "none";
}

/** The roles each role may give to the users it creates or changes. */
export const grantableRoles: Record<Role, readonly Role[]> = {
  super_admin: ["super_admin", "admin", "user"],
  admin: ["admin", "user"],
  user: [],
};

export const roleLabels: Record<Role, string> = { super_admin: "super admin", admin: "admin", user: "user" };

export function forbiddenMessage(role: Role, action: Action): string {
  return `Your role (${roleLabels[role]}) does not allow you to ${policies[action].description}`;
}
