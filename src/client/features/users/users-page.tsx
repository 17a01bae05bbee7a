import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, SearchX, Users } from "lucide-react";
import { useMemo, useState } from "react";
import type { UserClientLink } from "../../../shared/assignments";
import { can, grantableRoles, roleLabels, scopeOf } from "../../../shared/permissions";
import type { Role } from "../../../shared/roles";
import type { CurrentUser, UserSummary } from "../../../shared/users";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { SearchInput } from "../../components/ui/search-input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { userClientsQueryOptions } from "../assignments/api";
import { AssignClientsDialog } from "../assignments/assign-clients-dialog";
import { currentUserQueryOptions } from "../auth/api";
import { usersQueryOptions, useUpdateUser } from "./api";
import { NewUserDialog } from "./new-user-dialog";
import { matchesUserSearch } from "./people";
import { ResetFactorsDialog } from "./reset-factors-dialog";
import { UserCard, type UserCardActions, UserCardSkeleton } from "./user-card";

const skeletonCards = ["a", "b", "c", "d", "e", "f"];

/**
 * /users (the USERS requirements, docs/design/people-screens.md): the firm's users from GET
 * /api/users and who serves which client, by name, from GET /api/user-clients. The client list
 * itself is loaded by the Assign Clients dialog when it opens. The search is local: a firm has tens
 * of users, not thousands.
 */
export function UsersPage() {
  const [search, setSearch] = useState("");
  const [assigning, setAssigning] = useState<string | null>(null);
  const [resetting, setResetting] = useState<UserSummary>();
  const { data: me } = useQuery(currentUserQueryOptions());
  const users = useQuery(usersQueryOptions());
  const links = useQuery(userClientsQueryOptions());
  const updateUser = useUpdateUser();

  const linksByUser = useMemo(() => {
    const map = new Map<string, UserClientLink[]>();
    for (const link of links.data ?? []) map.set(link.userId, [...(map.get(link.userId) ?? []), link]);
    return map;
  }, [links.data]);

  const visible = (users.data ?? []).filter((user) => matchesUserSearch(user, search));
  const assigningUser = users.data?.find((user) => user.id === assigning);
  const pending = users.isPending || links.isPending || !me;
  const failed = users.error ?? links.error;

  const namesOf = (user: UserSummary): string[] | undefined => {
    if (!me || (scopeOf(me.role, "assignments.read") === "self" && user.id !== me.id)) return undefined;
    // Archived clients leave the cards as they leave every list; the links stay.
    return (linksByUser.get(user.id) ?? [])
      .filter((link) => !link.clientArchived)
      .map((link) => link.clientName)
      .sort((a, b) => a.localeCompare(b));
  };

  const change = (user: UserSummary, input: { role: Role } | { disabled: boolean }, done: string) =>
    updateUser.mutate(
      { userId: user.id, input },
      {
        onSuccess: () => toast.success(done),
        onError: (error) =>
          toast.error("Failed to update user", { description: errorMessage(error, "Please try again.") }),
      },
    );

  const actionsFor = (user: UserSummary, actor: CurrentUser): UserCardActions => {
    const mayChange =
      can(actor.role, "users.update") && user.id !== actor.id && grantableRoles[actor.role].includes(user.role);
    return {
      ...(can(actor.role, "assignments.write") ? { onAssign: () => setAssigning(user.id) } : {}),
      ...(can(actor.role, "security.manage") && user.id !== actor.id
        ? { onResetFactors: () => setResetting(user) }
        : {}),
      ...(mayChange
        ? {
            roleChoices: grantableRoles[actor.role].filter((role) => role !== user.role),
            onChangeRole: (role: Role) =>
              change(user, { role }, `${user.fullName} is now ${withArticle(roleLabels[role])}`),
            onToggleDisabled: () =>
              change(
                user,
                { disabled: !user.disabled },
                user.disabled ? `${user.fullName} can sign in again` : `${user.fullName} is disabled`,
              ),
          }
        : {}),
    };
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-center gap-2 sm:justify-between">
        <SearchInput
          className="min-w-0 flex-1 sm:max-w-80"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search users..."
          aria-label="Search users by username, full name or role"
          autoComplete="off"
        />
        {me && can(me.role, "users.create") && <NewUserDialog grantable={grantableRoles[me.role]} />}
      </div>
      {failed ? (
        <Card role="alert" className="flex flex-col items-start gap-3 p-6">
          <div className="flex items-center gap-2 font-medium">
            <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
            The users could not be loaded
          </div>
          <p className="text-sm text-muted-foreground">{errorMessage(failed, "Please try again.")}</p>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              void users.refetch();
              void links.refetch();
            }}
          >
            Try again
          </Button>
        </Card>
      ) : pending ? (
        <div role="status" aria-label="Loading users" className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {skeletonCards.map((key) => (
            <UserCardSkeleton key={key} />
          ))}
        </div>
      ) : visible.length === 0 ? (
        search.trim() ? (
          <EmptyState icon={SearchX} title="No users found" description="Try adjusting your search terms" />
        ) : (
          <EmptyState icon={Users} title="No users yet" description="Add the people of your firm with New User." />
        )
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label="Users">
          {visible.map((user) => (
            <li key={user.id} className="min-w-0">
              <UserCard user={user} clientNames={namesOf(user)} actions={actionsFor(user, me)} />
            </li>
          ))}
        </ul>
      )}
      <ResetFactorsDialog user={resetting} onClose={() => setResetting(undefined)} />
      {assigningUser && (
        <AssignClientsDialog
          user={assigningUser}
          assignedIds={(linksByUser.get(assigningUser.id) ?? []).map((link) => link.clientId)}
          onOpenChange={(open) => !open && setAssigning(null)}
        />
      )}
    </div>
  );
}

const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) && noun !== "user" ? "an" : "a"} ${noun}`;
