import { Check, ChevronsUpDown, type LucideIcon } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { Button } from "../../components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover";
import { SearchInput } from "../../components/ui/search-input";
import { cn } from "../../lib/cn";

export type PickerItem = { id: string; label: string; detail?: string | null };

/**
 * A searchable single choice (the report's client and user pickers): a button that opens a
 * search box over a list box. The caller owns the search, so the client picker asks the API
 * (a firm may have 10,000 clients) while the user picker filters the firm's few users in place.
 * Arrow keys move through the options, Enter chooses, Escape closes (Radix returns focus).
 */
export function EntityPicker({
  label,
  placeholder,
  searchLabel,
  selectedId,
  selectedLabel,
  items,
  query,
  onQueryChange,
  onSelect,
  status,
  emptyText,
  hint,
  icon: Icon,
}: {
  label: string;
  placeholder: string;
  searchLabel: string;
  selectedId: string | null;
  /** What the closed picker shows for the chosen item (its name may come from the report). */
  selectedLabel: string | null;
  items: PickerItem[];
  query: string;
  onQueryChange: (query: string) => void;
  onSelect: (item: PickerItem) => void;
  status: { pending: boolean; error: string | null };
  emptyText: string;
  /** A line under the options, e.g. "Showing the first 20 — type to search". */
  hint?: string;
  icon: LucideIcon;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const labelId = useId();
  const valueId = useId();
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  const choose = (item: PickerItem) => {
    onSelect(item);
    setOpen(false);
    onQueryChange("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (items.length === 0) return;
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(active + 1, last),
      ArrowUp: Math.max(active - 1, 0),
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      const next = moves[event.key] ?? 0;
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
    } else if (event.key === "Enter") {
      event.preventDefault();
      const item = items[Math.min(active, last)];
      if (item) choose(item);
    }
  };

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <span id={labelId} className="text-xs font-medium text-muted-foreground">
        {label}
      </span>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setActive(0);
          if (!next) onQueryChange("");
        }}
      >
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            role="combobox"
            aria-expanded={open}
            aria-haspopup="listbox"
            aria-labelledby={`${labelId} ${valueId}`}
            className="w-full justify-between px-3 font-normal"
          >
            <span className="flex min-w-0 items-center gap-2">
              <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
              <span id={valueId} className={cn("truncate", !selectedLabel && "text-muted-foreground")}>
                {selectedLabel ?? placeholder}
              </span>
            </span>
            <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden="true" />
          </Button>
        </PopoverTrigger>
        <PopoverContent
          align="start"
          aria-label={searchLabel}
          className="w-(--radix-popover-trigger-width) min-w-72 p-0"
        >
          <div className="border-b p-2">
            <SearchInput
              role="combobox"
              aria-label={searchLabel}
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={items.length > 0 ? optionId(Math.min(active, items.length - 1)) : undefined}
              placeholder={`${searchLabel}...`}
              autoComplete="off"
              value={query}
              onChange={(event) => {
                onQueryChange(event.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              inputClassName="shadow-none [&::-webkit-search-cancel-button]:appearance-none"
            />
          </div>
          {status.pending ? (
            <p className="px-3 py-3 text-sm text-muted-foreground" role="status">
              Searching…
            </p>
          ) : status.error ? (
            <p className="px-3 py-3 text-sm text-destructive" role="alert">
              {status.error}
            </p>
          ) : items.length === 0 ? (
            <p className="px-3 py-3 text-sm text-muted-foreground">{emptyText}</p>
          ) : (
            <div id={listId} role="listbox" aria-label={label} className="max-h-72 overflow-y-auto p-1">
              {items.map((item, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the search box above handles the keys (aria-activedescendant)
                <div
                  key={item.id}
                  id={optionId(index)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={item.id === selectedId}
                  data-active={index === Math.min(active, items.length - 1) || undefined}
                  // Focus stays in the search box, which owns the keys.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(item)}
                  onMouseMove={() => setActive(index)}
                  className="flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 data-[active]:bg-accent"
                >
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate text-sm font-medium">{item.label}</span>
                    {item.detail && <span className="truncate text-xs text-muted-foreground">{item.detail}</span>}
                  </span>
                  {item.id === selectedId && <Check className="size-4 text-primary" aria-hidden="true" />}
                </div>
              ))}
            </div>
          )}
          {hint && !status.pending && !status.error && items.length > 0 && (
            <p className="border-t px-3 py-2 text-xs text-muted-foreground">{hint}</p>
          )}
        </PopoverContent>
      </Popover>
    </div>
  );
}
