import { useInfiniteQuery } from "@tanstack/react-query";
import { Loader2 } from "lucide-react";
import { useId, useState } from "react";
import type { UserSummary } from "../../../shared/users";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { SearchInput } from "../../components/ui/search-input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { clientGridQueryOptions } from "../clients/api";
import { useAssignClients } from "./api";

/** How long typing must pause before the search asks the API. */
const searchDebounceMs = 250;

export const assignTexts = { success: "Clients assigned successfully", failure: "Failed to assign clients" } as const;

/**
 * The Assign Clients dialog (S-USERS-13..15): a checkbox per client in a list that scrolls beyond 24rem
 * (max-h-96), searchable, saved as the user's whole list (an empty list removes every client).
 * Mounted only while open, so each opening starts from the user's current clients. The list is
 * the firm's clients a page at a time, and the search is the API's (GET /api/clients?q=…), the
 * same as the Clients page's: a firm of 10,000 clients is never loaded whole. A ticked client stays
 * ticked while the search shows others.
 */
export function AssignClientsDialog({
  user,
  assignedIds,
  onOpenChange,
}: {
  user: UserSummary;
  assignedIds: readonly string[];
  onOpenChange: (open: boolean) => void;
}) {
  const [selected, setSelected] = useState(() => new Set(assignedIds));
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim(), searchDebounceMs);
  const assign = useAssignClients();
  const list = useInfiniteQuery(clientGridQueryOptions(q));
  const listId = useId();
  const pending = assign.isPending;
  const shown = list.data?.pages.flatMap((page) => page.clients) ?? [];

  const toggle = (clientId: string, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(clientId);
      else next.delete(clientId);
      return next;
    });

  const save = () =>
    assign.mutate(
      { userId: user.id, clientIds: [...selected], previousClientIds: assignedIds },
      {
        onSuccess: () => {
          toast.success(assignTexts.success);
          onOpenChange(false);
        },
        onError: (error) => {
          const reason = errorMessage(error, "");
          toast.error(assignTexts.failure, reason ? { description: reason } : {});
        },
      },
    );

  return (
    <Dialog open onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Assign Clients</DialogTitle>
          <DialogDescription>
            Choose the clients {user.fullName} works on. They see only these clients when their role is user.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <SearchInput
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search clients..."
            aria-label="Search clients by name or industry"
            aria-controls={listId}
            autoComplete="off"
          />
          <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
            <span data-testid="assign-selected-count" aria-live="polite">
              {selected.size} selected
            </span>
            <Button
              variant="link"
              size="sm"
              onClick={() => setSelected(new Set())}
              disabled={pending || selected.size === 0}
            >
              Clear all
            </Button>
          </div>
          <fieldset
            id={listId}
            disabled={pending}
            data-testid="assign-client-list"
            className="max-h-96 min-w-0 overflow-y-auto rounded-md border"
          >
            <legend className="sr-only">Clients</legend>
            {list.isPending ? (
              <p
                role="status"
                className="flex items-center justify-center gap-2 px-4 py-6 text-sm text-muted-foreground"
              >
                <Loader2 className="size-4 animate-spin" aria-hidden="true" />
                Loading clients...
              </p>
            ) : list.isError ? (
              <div role="alert" className="flex flex-col items-center gap-2 px-4 py-6 text-center text-sm">
                <p>The clients could not be loaded. {errorMessage(list.error, "Please try again.")}</p>
                <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
                  Try again
                </Button>
              </div>
            ) : shown.length === 0 && q === "" ? (
              <p className="px-4 py-6 text-center text-sm text-muted-foreground">
                The firm has no clients yet. Add clients first, then assign them here.
              </p>
            ) : shown.length === 0 ? (
              <p className="px-4 py-6 text-center text-sm text-muted-foreground">No clients match your search.</p>
            ) : (
              <ul className="divide-y">
                {shown.map((client) => {
                  const checkboxId = `${listId}-${client.id}`;
                  return (
                    <li key={client.id} className="flex items-center gap-3 px-3 py-2 hover:bg-accent/60">
                      <Checkbox
                        id={checkboxId}
                        checked={selected.has(client.id)}
                        onCheckedChange={(checked) => toggle(client.id, checked === true)}
                      />
                      <label htmlFor={checkboxId} className="flex min-w-0 flex-1 cursor-pointer flex-col">
                        <span className="truncate text-sm font-medium">{client.name}</span>
                        {client.industry && (
                          <span className="truncate text-xs text-muted-foreground">{client.industry}</span>
                        )}
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
            {list.hasNextPage && (
              <div className="flex justify-center border-t px-3 py-2">
                <Button
                  variant="link"
                  size="sm"
                  onClick={() => void list.fetchNextPage()}
                  disabled={list.isFetchingNextPage}
                >
                  {list.isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
                  {list.isFetchingNextPage ? "Loading more..." : "Show more clients"}
                </Button>
              </div>
            )}
          </fieldset>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={save} disabled={pending || !list.isSuccess}>
            {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {pending ? "Saving..." : "Save Assignments"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
