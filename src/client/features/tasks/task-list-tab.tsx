import { useInfiniteQuery } from "@tanstack/react-query";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { AlertTriangle, ClipboardList, Loader2, SearchX } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { type TaskListItem, taskStatuses } from "../../../shared/tasks";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { SearchInput } from "../../components/ui/search-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { useDateFormat } from "../../lib/firm";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { type TaskFilter, taskListQueryOptions } from "./api";
import { TaskCard } from "./task-card";
import { TaskDetailsDialog } from "./task-details-dialog";

/** Typing pauses this long before the API is asked, so a word typed costs one request. */
const debounceMs = 300;
/** A card's usual height with the gap below it; cards are measured once rendered. */
const estimatedRowHeight = 150;
/** Load the next page when the last rendered card is this close to the end of what is loaded. */
const prefetchRows = 10;

const statusLabels: Record<TaskFilter["status"], string> = {
  all: "All statuses",
  pending: "Pending",
  completed: "Completed",
  overdue: "Overdue",
};
const filterStatuses = ["all", ...taskStatuses] as const;

/**
 * The audit tab (the TAUD requirements). Search and the status filter are served by the API, in its
 * audit order (completed first, newest completion first, then by due date, latest first). A firm
 * may have 100,000 tasks, so the list is read page by page and only the cards near the viewport are
 * in the DOM (issue 8: under 1,500 elements).
 *
 * The status filter lives in the URL (`/tasks?status=overdue`), as the reports keep their choices:
 * a reload or a shared link shows the same list, and each choice is a history entry the back
 * button returns from. An unknown value reads as "all".
 */
export function TaskListTab() {
  const [text, setText] = useState("");
  const [params, setParams] = useSearchParams();
  const status = filterStatuses.find((value) => value === params.get("status")) ?? "all";
  const setStatus = (value: TaskFilter["status"]) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value === "all") next.delete("status");
      else next.set("status", value);
      return next;
    });
  const q = useDebouncedValue(text.trim(), debounceMs);
  const filter: TaskFilter = { q, status };
  const tasks = useInfiniteQuery(taskListQueryOptions(filter));
  const formatDate = useDateFormat();
  const [selected, setSelected] = useState<TaskListItem | null>(null);
  const filtered = q !== "" || status !== "all";
  const loaded = tasks.data?.pages.flatMap((page) => page.tasks) ?? [];
  // The open task as the list has it now: a due date moved in its details shows there at once.
  const viewed = selected && (loaded.find((task) => task.id === selected.id) ?? selected);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SearchInput
          className="flex-1"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search tasks or clients..."
          aria-label="Search tasks"
        />
        <Select value={status} onValueChange={(value) => setStatus(value as TaskFilter["status"])}>
          <SelectTrigger className="sm:w-44" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {filterStatuses.map((value) => (
              <SelectItem key={value} value={value}>
                {statusLabels[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>

      {tasks.isPending ? (
        <AuditSkeleton />
      ) : tasks.isError ? (
        <Card role="alert" className="flex flex-col items-start gap-3 p-6">
          <div className="flex items-center gap-2 font-medium">
            <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
            Tasks could not be loaded
          </div>
          <p className="text-sm text-muted-foreground">{errorMessage(tasks.error, "Please try again.")}</p>
          <Button variant="outline" size="sm" onClick={() => tasks.refetch()}>
            Try again
          </Button>
        </Card>
      ) : loaded.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title="No tasks found"
            description="Try a different search term or status filter."
          />
        ) : (
          <EmptyState
            icon={ClipboardList}
            title="No task history yet"
            description="Tasks appear here once work is created for your clients."
          />
        )
      ) : (
        <>
          <p className="text-xs text-muted-foreground" aria-live="polite" data-testid="audit-count">
            {tasks.hasNextPage
              ? `Showing the first ${loaded.length.toLocaleString("en-US")} tasks · scroll for more`
              : `${loaded.length.toLocaleString("en-US")} ${loaded.length === 1 ? "task" : "tasks"}`}
          </p>
          <VirtualTaskList
            tasks={loaded}
            formatDate={formatDate}
            onView={setSelected}
            hasMore={tasks.hasNextPage}
            loadingMore={tasks.isFetchingNextPage}
            loadMore={() => {
              if (tasks.hasNextPage && !tasks.isFetchingNextPage) void tasks.fetchNextPage();
            }}
          />
        </>
      )}

      <TaskDetailsDialog
        task={viewed}
        formatDate={formatDate}
        onOpenChange={(open) => {
          if (!open) setSelected(null);
        }}
      />
    </div>
  );
}

function VirtualTaskList({
  tasks,
  formatDate,
  onView,
  hasMore,
  loadingMore,
  loadMore,
}: {
  tasks: TaskListItem[];
  formatDate: (iso: string | null) => string;
  onView: (task: TaskListItem) => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The list scrolls with the window, below the tabs and filters: the virtualizer needs its offset.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) setScrollMargin(list.getBoundingClientRect().top + window.scrollY);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: tasks.length,
    estimateSize: () => estimatedRowHeight,
    overscan: 4,
    scrollMargin,
    getItemKey: (index) => tasks[index]?.id ?? index,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.at(-1)?.index ?? 0;

  // Infinite scroll: the next page is asked for before the reader reaches the end of this one.
  useEffect(() => {
    if (hasMore && lastIndex >= tasks.length - prefetchRows) loadMore();
  }, [hasMore, lastIndex, tasks.length, loadMore]);

  return (
    <div className="flex flex-col gap-3">
      <ul
        ref={listRef}
        aria-label="Tasks"
        className="relative"
        style={{ height: virtualizer.getTotalSize() }}
        data-testid="task-list"
      >
        {rows.map((row) => {
          const task = tasks[row.index];
          if (!task) return null;
          return (
            <li
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className="absolute top-0 left-0 w-full pb-3"
              style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
            >
              <TaskCard task={task} formatDate={formatDate} onView={() => onView(task)} />
            </li>
          );
        })}
      </ul>
      {hasMore && (
        <Button variant="outline" className="self-center" onClick={loadMore} disabled={loadingMore}>
          {loadingMore && <Loader2 className="animate-spin" aria-hidden="true" />}
          {loadingMore ? "Loading more..." : "Load more tasks"}
        </Button>
      )}
    </div>
  );
}

function AuditSkeleton() {
  return (
    <div className="flex flex-col gap-3" role="status" aria-label="Loading tasks" data-testid="audit-skeleton">
      {[1, 2, 3, 4, 5].map((key) => (
        <Card key={key} className="flex flex-col gap-3 p-4">
          <div className="flex gap-2">
            <Skeleton className="h-5 w-20 rounded-full" />
            <Skeleton className="h-5 w-24 rounded-full" />
          </div>
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-3 w-1/3" />
        </Card>
      ))}
    </div>
  );
}
