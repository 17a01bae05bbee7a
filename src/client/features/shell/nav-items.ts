import {
  BarChart3,
  Building2,
  ClipboardCheck,
  LayoutDashboard,
  type LucideIcon,
  Settings,
  UserCog,
} from "lucide-react";

export type NavItem = {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Whether the item is the current section for this path (detail pages belong to their list). */
  isCurrent: (pathname: string) => boolean;
};

const under =
  (...prefixes: string[]) =>
  (pathname: string) =>
    prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

/** S-SHELL-01..07, in their order; every role sees every item (S-ROLE-04). */
export const mainNavItems: NavItem[] = [
  { label: "Dashboard", to: "/", icon: LayoutDashboard, isCurrent: (p) => p === "/" || p === "/dashboard" },
  { label: "Clients", to: "/clients", icon: Building2, isCurrent: under("/clients", "/client") },
  { label: "Task Audit", to: "/tasks", icon: ClipboardCheck, isCurrent: under("/tasks") },
  { label: "Reports", to: "/reports", icon: BarChart3, isCurrent: under("/reports") },
];

/** S-SHELL-05..06: these sit at the bottom of the navigation. */
export const footerNavItems: NavItem[] = [
  { label: "User Management", to: "/users", icon: UserCog, isCurrent: under("/users") },
  { label: "Settings", to: "/settings", icon: Settings, isCurrent: under("/settings") },
];
