import { useQuery } from "@tanstack/react-query";
import { ChevronDown, LogOut } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { initials, roleDisplay } from "../../lib/user-display";
import { currentUserQueryOptions, useSignOut } from "../auth/api";

/** S-SHELL-13..17: full name, role, initials, and one action, "Sign Out". */
export function UserMenu() {
  const { data: user } = useQuery(currentUserQueryOptions());
  const signOut = useSignOut();
  if (!user) return null;
  const role = roleDisplay(user.role);

  return (
    // Not modal: the page behind stays in the accessibility tree, so nothing focusable is hidden.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        aria-label="User menu"
        className="flex items-center gap-2.5 rounded-md p-1 outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring md:pr-2"
      >
        <span className="flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">
          {initials(user.fullName)}
        </span>
        <span className="hidden min-w-0 flex-col items-start text-left md:flex">
          <span className="max-w-40 truncate text-sm font-medium leading-tight">{user.fullName}</span>
          <span className="text-xs leading-tight text-muted-foreground">{role}</span>
        </span>
        <ChevronDown className="hidden size-4 text-muted-foreground md:block" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-medium" data-testid="user-menu-name">
            {user.fullName}
          </span>
          <span className="text-xs font-normal text-muted-foreground" data-testid="user-menu-role">
            {role}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={signOut.isPending}
          onSelect={(event) => {
            // The menu stays open while signing out, so the disabled item shows the pending state.
            event.preventDefault();
            signOut.mutate(undefined, {
              onError: (error) => toast.error(errorMessage(error, "Sign out failed. Please try again.")),
            });
          }}
        >
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
