import { ArrowRight, Building2, MoreHorizontal } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { roleLabels } from "../../../shared/permissions";
import type { Role } from "../../../shared/roles";
import type { UserSummary } from "../../../shared/users";
import { Badge, roleBadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { Skeleton } from "../../components/ui/skeleton";
import { initials } from "../../lib/user-display";
import { clientNamesPreview } from "./people";

export type UserCardActions = {
  /** Shown to those who may assign clients (super_admin, S-ROLE-14). */
  onAssign?: () => void;
  /** The roles the actor may move this user to; empty or absent hides the menu's role items. */
  roleChoices?: readonly Role[];
  onChangeRole?: (role: Role) => void;
  onToggleDisabled?: () => void;
  /** Shown to super admins for another user: their sign-in factors removed (decision 0044). */
  onResetFactors?: () => void;
};

/**
 * One user of the grid (S-USERS-04..07): name, @username, role badge (S-ROLE-03), up to 3 client names and
 * "+N more", View Profile, and the actions the actor's role allows. `clientNames` is undefined
 * when the actor may not see this user's assignments (a `user` sees only their own).
 */
export function UserCard({
  user,
  clientNames,
  actions,
}: {
  user: UserSummary;
  clientNames: readonly string[] | undefined;
  actions: UserCardActions;
}) {
  const nameId = useId();
  const { onAssign, roleChoices = [], onChangeRole, onToggleDisabled, onResetFactors } = actions;
  const hasRoleItems = roleChoices.length > 0 && onChangeRole;
  const hasMenu = hasRoleItems || onToggleDisabled || onResetFactors;
  return (
    <article
      aria-labelledby={nameId}
      data-testid="user-card"
      className="flex h-full min-w-0 flex-col rounded-lg border bg-card text-card-foreground shadow-xs"
    >
      <div className="flex items-start gap-3 px-5 pt-4">
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-subtle text-sm font-semibold text-primary-subtle-foreground"
          aria-hidden="true"
        >
          {initials(user.fullName)}
        </span>
        <div className="flex min-w-0 flex-1 flex-col">
          <h2 id={nameId} className="truncate text-base font-semibold leading-snug" title={user.fullName}>
            {user.fullName}
          </h2>
          <p className="truncate text-sm text-muted-foreground" data-testid="user-username">
            @{user.username}
          </p>
          <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
            <Badge variant={roleBadgeVariant[user.role]} data-testid="role-badge" className="capitalize">
              {roleLabels[user.role]}
            </Badge>
            {user.disabled && (
              <Badge variant="outline" data-testid="disabled-badge">
                Disabled
              </Badge>
            )}
          </div>
        </div>
        {hasMenu && (
          // Not modal, like the user menu: the page stays in the accessibility tree while it is open.
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="-mt-1 -mr-2 size-8" aria-label={`Manage ${user.fullName}`}>
                <MoreHorizontal aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {hasRoleItems && (
                <>
                  <DropdownMenuLabel className="text-xs text-muted-foreground">Change role</DropdownMenuLabel>
                  {roleChoices.map((role) => (
                    <DropdownMenuItem key={role} onSelect={() => onChangeRole(role)}>
                      Make <span className="capitalize">{roleLabels[role]}</span>
                    </DropdownMenuItem>
                  ))}
                </>
              )}
              {hasRoleItems && (onToggleDisabled || onResetFactors) && <DropdownMenuSeparator />}
              {onResetFactors && (
                <DropdownMenuItem onSelect={() => onResetFactors()}>Reset sign-in factors</DropdownMenuItem>
              )}
              {onToggleDisabled && (
                <DropdownMenuItem
                  variant={user.disabled ? "default" : "destructive"}
                  onSelect={() => onToggleDisabled()}
                >
                  {user.disabled ? "Enable user" : "Disable user"}
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 px-5 py-4">
        {clientNames !== undefined && <ClientNames names={clientNames} />}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 border-t px-5 py-3">
        <Link
          to={`/users/${user.id}`}
          aria-label={`View Profile of ${user.fullName}`}
          className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          View Profile
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
        {onAssign && (
          <Button variant="outline" size="sm" onClick={onAssign} aria-label={`Assign Clients to ${user.fullName}`}>
            <Building2 aria-hidden="true" />
            Assign Clients
          </Button>
        )}
      </div>
    </article>
  );
}

function ClientNames({ names }: { names: readonly string[] }) {
  const { shown, more } = clientNamesPreview(names);
  return (
    <div className="flex min-w-0 flex-col gap-1.5" data-testid="user-clients">
      <p className="text-xs font-medium text-muted-foreground">
        Assigned clients ({names.length.toLocaleString("en-US")})
      </p>
      {names.length === 0 ? (
        <p className="text-sm text-muted-foreground">No clients assigned</p>
      ) : (
        <ul className="flex min-w-0 flex-wrap gap-1.5">
          {shown.map((name, index) => (
            // Names may repeat; their place in the list does not.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for one render
            <li key={`${index}-${name}`} className="min-w-0 max-w-full">
              <Badge
                variant="outline"
                className="block max-w-full truncate"
                title={name}
                data-testid="user-client-name"
              >
                {name}
              </Badge>
            </li>
          ))}
          {more > 0 && (
            <li>
              <Badge variant="secondary" data-testid="user-clients-more">
                +{more} more
              </Badge>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

export function UserCardSkeleton() {
  return (
    <div className="flex flex-col gap-4 rounded-lg border bg-card p-5">
      <div className="flex items-center gap-3">
        <Skeleton className="size-10 rounded-full" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-3 w-24" />
        </div>
      </div>
      <Skeleton className="h-5 w-48" />
      <Skeleton className="h-8 w-full" />
    </div>
  );
}
