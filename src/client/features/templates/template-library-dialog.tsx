import { useQuery } from "@tanstack/react-query";
import { Check, Loader2, Plus, Repeat, TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { type LibraryCategory, libraryCategories, libraryCategoryLabels } from "../../../shared/template-library";
import type { LibraryTemplateEntry } from "../../../shared/templates";
import { PriorityBadge } from "../../components/task-badges";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { useGuardedActions } from "../../components/ui/guarded-form";
import { SearchInput } from "../../components/ui/search-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Skeleton } from "../../components/ui/skeleton";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { libraryQueryOptions, useAddLibraryTemplate } from "./api";
import { everyText } from "./format";

type Industry = LibraryCategory | "all";

/**
 * The "Browse library" of S-TTPL-28: the curated templates by industry; Add copies one into the
 * firm's templates (POST /api/template-library/{key}/add), after which it reads "Added". An entry
 * whose name one of the firm's templates already has says so, and its Add asks first (S-EDGE-05).
 */
export function TemplateLibraryDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const library = useQuery({ ...libraryQueryOptions(), enabled: open });
  const add = useAddLibraryTemplate();
  const adding = useGuardedActions();
  // One Idempotency-Key per opening of the library, made per template added from it: a template
  // deleted and added again in a later opening is a new request.
  const [opening, setOpening] = useState(() => crypto.randomUUID());
  // The entry whose Add is asking "add a second template with this name?"; none at an opening.
  const [asking, setAsking] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setOpening(crypto.randomUUID());
    setAsking(null);
  }, [open]);
  const [industry, setIndustry] = useState<Industry>("all");
  const [text, setText] = useState("");
  const words = text.trim().toLowerCase();

  const entries = (library.data ?? []).filter(
    (entry) =>
      (industry === "all" || entry.category === industry) &&
      (!words || `${entry.name} ${entry.description}`.toLowerCase().includes(words)),
  );
  const groups = libraryCategories
    .map((category) => ({ category, entries: entries.filter((entry) => entry.category === category) }))
    .filter((group) => group.entries.length > 0);

  const onAdd = (entry: LibraryTemplateEntry) => {
    if (entry.nameInUse && asking !== entry.key) {
      setAsking(entry.key);
      return;
    }
    setAsking(null);
    return adding.run(entry.key, () =>
      add.mutateAsync({ key: entry.key, idempotencyKey: `${opening}:${entry.key}` }).then(
        () => toast.success(`"${entry.name}" added to your templates`),
        (error: unknown) =>
          toast.error("Failed to add template", { description: errorMessage(error, "Please try again.") }),
      ),
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl" bodyClassName="flex flex-col gap-0 p-0">
        <DialogHeader className="gap-1.5 border-b p-6 pb-4">
          <DialogTitle>Template Library</DialogTitle>
          <DialogDescription>
            {library.data
              ? `${library.data.length} curated templates for professional service firms. Add the ones your firm uses.`
              : "Curated templates for professional service firms. Add the ones your firm uses."}
          </DialogDescription>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row">
            <SearchInput
              className="flex-1"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Search the library..."
              aria-label="Search the library"
            />
            <Select value={industry} onValueChange={(value) => setIndustry(value as Industry)}>
              <SelectTrigger className="sm:w-48" aria-label="Filter by industry">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All industries</SelectItem>
                {libraryCategories.map((category) => (
                  <SelectItem key={category} value={category}>
                    {libraryCategoryLabels[category]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </DialogHeader>
        {/* Positioned, so the rows' screen-reader-only labels scroll and clip with the list, not past it. */}
        <div className="relative min-h-0 flex-1 overflow-y-auto p-6 pt-4">
          {library.isPending ? (
            <div className="flex flex-col gap-3" role="status" aria-label="Loading the library">
              {[1, 2, 3, 4].map((key) => (
                <Skeleton key={key} className="h-20" />
              ))}
            </div>
          ) : library.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(library.error, "The library could not be loaded. Please try again.")}
            </p>
          ) : groups.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">No library templates match your search.</p>
          ) : (
            <div className="flex flex-col gap-6">
              {groups.map((group) => (
                <section
                  key={group.category}
                  aria-labelledby={`library-${group.category}`}
                  className="flex flex-col gap-2"
                >
                  <h3
                    id={`library-${group.category}`}
                    className="flex items-baseline gap-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                  >
                    {libraryCategoryLabels[group.category]}
                    <span className="font-normal normal-case tracking-normal">{group.entries.length}</span>
                  </h3>
                  <ul className="flex flex-col divide-y rounded-lg border">
                    {group.entries.map((entry) => (
                      <LibraryRow
                        key={entry.key}
                        entry={entry}
                        adding={adding.busy.has(entry.key)}
                        asking={asking === entry.key}
                        onAdd={() => onAdd(entry)}
                        onCancel={() => setAsking(null)}
                      />
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function LibraryRow({
  entry,
  adding,
  asking,
  onAdd,
  onCancel,
}: {
  entry: LibraryTemplateEntry;
  adding: boolean;
  /** Whether Add was pressed on an entry whose name is in use, and waits for "Add anyway". */
  asking: boolean;
  onAdd: () => void;
  onCancel: () => void;
}) {
  const sameName = entry.nameInUse && !entry.added;
  return (
    <li aria-label={entry.name} className="flex flex-col gap-3 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:gap-4">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h4 className="text-sm font-semibold">{entry.name}</h4>
          </div>
          <p className="text-sm text-muted-foreground">{entry.description}</p>
          <div className="flex flex-wrap items-center gap-2 pt-0.5 text-xs text-muted-foreground">
            <PriorityBadge priority={entry.priority} />
            <span className="flex items-center gap-1.5" data-testid="library-frequency">
              {entry.frequency ? (
                <>
                  <Repeat className="size-3.5 text-primary" aria-hidden="true" />
                  {everyText(entry.frequency)}
                </>
              ) : (
                "One-time"
              )}
            </span>
            {sameName && (
              <span className="flex items-center gap-1.5 font-medium text-warning-subtle-foreground">
                <TriangleAlert className="size-3.5" aria-hidden="true" />
                You have a template with this name
              </span>
            )}
          </div>
        </div>
        {entry.added ? (
          <span className="inline-flex h-8 items-center gap-1.5 self-start px-3 text-xs font-medium text-success">
            <Check className="size-4" aria-hidden="true" />
            Added
          </span>
        ) : (
          !asking && (
            <Button variant="outline" size="sm" className="self-start" onClick={onAdd} disabled={adding}>
              {adding ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
              Add
              <span className="sr-only">: {entry.name}</span>
            </Button>
          )
        )}
      </div>
      {asking && (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md border border-warning/40 bg-warning-subtle px-3 py-2 text-sm text-warning-subtle-foreground sm:flex-row sm:items-center sm:justify-between"
        >
          <p>Your templates already include one named "{entry.name}". Add a second one?</p>
          <div className="flex shrink-0 gap-2">
            <Button variant="ghost" size="sm" onClick={onCancel}>
              Cancel
            </Button>
            {/* Focus moves here from the Add button it replaces, so the keyboard stays on the question. */}
            <Button variant="outline" size="sm" onClick={onAdd} ref={(button) => button?.focus()}>
              Add anyway
              <span className="sr-only">: {entry.name}</span>
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}
