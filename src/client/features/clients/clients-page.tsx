import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { AlertTriangle, Building2, Plus, SearchX, Upload } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { can } from "../../../shared/permissions";
import { InternalTargetNote } from "../../components/internal-target-note";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { SearchInput } from "../../components/ui/search-input";
import { errorMessage } from "../../lib/api";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { currentUserQueryOptions } from "../auth/api";
import { clientGridQueryOptions } from "./api";
import { ClientCardSkeleton } from "./client-card";
import { ClientGrid } from "./client-grid";
import { NewClientDialog } from "./new-client-dialog";

/** Typing pauses this long before the API is asked (the shell's search waits as long). */
const searchDebounceMs = 250;
/** S-CONST-44: the grid's skeleton is six cards. */
const skeletonCards = ["a", "b", "c", "d", "e", "f"];

/**
 * /clients (the CLIST requirements). The title is the route's (the shell's h1). The search is the API's
 * `q` (name, industry or status, case-insensitive), so it finds any client of a large firm, not
 * only the pages already loaded.
 */
export function ClientsPage() {
  const [text, setText] = useState("");
  const [creating, setCreating] = useState(false);
  const q = useDebouncedValue(text.trim(), searchDebounceMs);
  const grid = useInfiniteQuery(clientGridQueryOptions(q));
  const { data: user } = useQuery(currentUserQueryOptions());
  const clients = grid.data?.pages.flatMap((page) => page.clients) ?? [];
  const canCreate = user != null && can(user.role, "clients.write");

  return (
    <div className="flex flex-col gap-6">
      {/* The search and the one action share a row at every width; the page's title is the shell's. */}
      <div className="flex items-center gap-2 sm:justify-between">
        <SearchInput
          className="min-w-0 flex-1 sm:max-w-80"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search clients..."
          aria-label="Search clients by name, industry or status"
          autoComplete="off"
          // Below sm the row also holds two buttons: the placeholder needs every pixel to show whole.
          inputClassName="max-sm:pr-1"
        />
        {canCreate && (
          <div className="flex shrink-0 items-center gap-1.5 sm:gap-2">
            {/* Icon-only below sm, so the search keeps its room at 375 px; the name stays for screen readers. */}
            <Button asChild variant="outline" className="max-sm:w-9 max-sm:px-0">
              <Link to="/clients/import">
                <Upload aria-hidden="true" />
                <span className="max-sm:sr-only">Import clients</span>
              </Link>
            </Button>
            <NewClientDialog open={creating} onOpenChange={setCreating} />
          </div>
        )}
      </div>
      <InternalTargetNote className="-mt-2" />
      {grid.isPending ? (
        <div
          role="status"
          aria-label="Loading clients"
          data-testid="clients-skeleton"
          className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3"
        >
          {skeletonCards.map((key) => (
            <ClientCardSkeleton key={key} />
          ))}
        </div>
      ) : grid.isError ? (
        <Card role="alert" className="flex flex-col items-start gap-3 p-6">
          <div className="flex items-center gap-2 font-medium">
            <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
            The clients could not be loaded
          </div>
          <p className="text-sm text-muted-foreground">{errorMessage(grid.error, "Please try again.")}</p>
          <Button variant="outline" size="sm" onClick={() => grid.refetch()}>
            Try again
          </Button>
        </Card>
      ) : clients.length === 0 ? (
        q ? (
          <EmptyState icon={SearchX} title="No clients found" description="Try adjusting your search terms" />
        ) : (
          <EmptyState
            icon={Building2}
            title="No clients yet"
            description="Start by adding your first client to the system"
            action={
              canCreate && (
                <Button onClick={() => setCreating(true)}>
                  <Plus aria-hidden="true" />
                  Add your first client
                </Button>
              )
            }
          />
        )
      ) : (
        <ClientGrid
          clients={clients}
          hasNextPage={grid.hasNextPage}
          isFetchingNextPage={grid.isFetchingNextPage}
          fetchNextPage={() => void grid.fetchNextPage()}
        />
      )}
    </div>
  );
}
