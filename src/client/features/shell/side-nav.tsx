import { Link, useLocation } from "react-router";
import { cn } from "../../lib/cn";
import { footerNavItems, mainNavItems, type NavItem } from "./nav-items";

/** The navigation list, shared by the desktop sidebar and the mobile slide-over. */
export function SideNav({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const renderItems = (items: NavItem[]) => (
    <ul className="flex flex-col gap-0.5">
      {items.map((item) => {
        const current = item.isCurrent(pathname);
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              onClick={onNavigate}
              aria-current={current ? "page" : undefined}
              className={cn(
                "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring",
                current && "bg-sidebar-active text-sidebar-active-foreground hover:bg-sidebar-active",
              )}
            >
              <item.icon className="size-4 shrink-0" aria-hidden="true" />
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
  return (
    <nav aria-label="Main" className="flex flex-1 flex-col justify-between gap-6 overflow-y-auto px-3 py-4">
      {renderItems(mainNavItems)}
      <div className="border-t pt-4">{renderItems(footerNavItems)}</div>
    </nav>
  );
}
