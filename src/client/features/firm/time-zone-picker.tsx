import { Check, ChevronsUpDown } from "lucide-react";
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from "react";
import { Button } from "../../components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover";
import { SearchInput } from "../../components/ui/search-input";
import { cn } from "../../lib/cn";
import { describeTimeZone, searchTimeZones, timeZoneOptions } from "./time-zones";

/** How far Page Up and Page Down move through the options. */
const pageStep = 10;

/**
 * The firm's time zone, chosen from the 400-odd zones the browser knows (S-EDGE-06): a button
 * that opens a search box over a list box, the report pickers' pattern. A search finds a zone by
 * city ("Tokyo", "new york"), region, everyday name ("Japan") or offset ("UTC+9"). Focus stays
 * in the search box, which owns the keys: arrows and Page Up/Down move, Enter chooses, Escape
 * closes (Radix returns focus to the button). Typing on the closed button opens it with that
 * letter, as a select would.
 *
 * It sits inside a FormControl, which passes the field's id, aria-describedby and aria-invalid:
 * they go on the button, so the form's label names it.
 */
export function TimeZonePicker({
  value,
  onChange,
  disabled,
  ...control
}: {
  value: string;
  onChange: (zone: string) => void;
  disabled?: boolean;
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  // The option the keys act on; null means the firm's zone when it is listed, else the first.
  const [active, setActive] = useState<number | null>(null);
  const listId = useId();
  const listRef = useRef<HTMLDivElement | null>(null);
  const optionId = (index: number) => `${listId}-option-${index}`;

  // The zones are described only when the list opens: the settings page need not wait for them.
  const options = useMemo(() => (open ? timeZoneOptions(value) : []), [open, value]);
  const matches = useMemo(() => searchTimeZones(options, query), [options, query]);
  const current = describeTimeZone(value);
  const selectedIndex = matches.findIndex((option) => option.zone === value);
  const activeIndex = Math.min(active ?? Math.max(selectedIndex, 0), matches.length - 1);

  // When the list appears, it starts scrolled to the firm's zone. A callback ref that never
  // changes runs once per opening, when the options are already in place.
  const attachList = useCallback((list: HTMLDivElement | null) => {
    listRef.current = list;
    const selected = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (list && selected) list.scrollTop = selected.offsetTop - (list.clientHeight - selected.offsetHeight) / 2;
  }, []);

  /** Scrolls the list, and only the list (not the page), so the option at `index` is in view. */
  const reveal = (index: number) => {
    const list = listRef.current;
    const option = document.getElementById(optionId(index));
    if (!list || !option) return;
    const bottom = option.offsetTop + option.offsetHeight;
    if (option.offsetTop < list.scrollTop) list.scrollTop = option.offsetTop;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  };

  const openWith = (text: string) => {
    setQuery(text);
    setActive(text === "" ? null : 0);
    setOpen(true);
  };

  const choose = (zone: string) => {
    onChange(zone);
    setOpen(false);
  };

  const move = (index: number) => {
    setActive(index);
    reveal(index);
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (matches.length === 0) return;
    const last = matches.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(activeIndex + 1, last),
      ArrowUp: Math.max(activeIndex - 1, 0),
      PageDown: Math.min(activeIndex + pageStep, last),
      PageUp: Math.max(activeIndex - pageStep, 0),
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      move(next);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const option = matches[activeIndex];
      if (option) choose(option.zone);
    }
  };

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const printable = event.key.length === 1 && event.key !== " " && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (printable) {
      event.preventDefault();
      openWith(event.key);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      openWith("");
    }
  };

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) openWith("");
        else setOpen(false);
      }}
    >
      <PopoverTrigger asChild>
        <Button
          {...control}
          variant="outline"
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          disabled={disabled}
          onKeyDown={onTriggerKeyDown}
          className="w-full justify-between px-3 font-normal aria-invalid:border-destructive"
        >
          <span className="flex min-w-0 items-baseline gap-2">
            <span className="truncate">{current.label}</span>
            {current.offset && <span className="shrink-0 text-xs text-muted-foreground">{current.offset}</span>}
          </span>
          <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="start"
        aria-label="Choose a time zone"
        className="w-(--radix-popover-trigger-width) min-w-72 p-0"
      >
        <div className="border-b p-2">
          <SearchInput
            role="combobox"
            aria-label="Search time zones"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={matches.length > 0 ? optionId(activeIndex) : undefined}
            placeholder="City, region or offset"
            autoComplete="off"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
              if (listRef.current) listRef.current.scrollTop = 0;
            }}
            onKeyDown={onSearchKeyDown}
            inputClassName="shadow-none [&::-webkit-search-cancel-button]:appearance-none"
          />
        </div>
        {/* The list box stays in place when nothing matches, so the search box's aria-controls always points at it. */}
        <div
          ref={attachList}
          id={listId}
          role="listbox"
          aria-label="Time zones"
          className={cn("relative max-h-72 overflow-y-auto p-1", matches.length === 0 && "hidden")}
        >
          {matches.map((option, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the search box above handles the keys (aria-activedescendant)
            <div
              key={option.zone}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={option.zone === value}
              data-active={index === activeIndex || undefined}
              // Focus stays in the search box, which owns the keys.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option.zone)}
              onMouseMove={() => setActive(index)}
              className="flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 data-[active]:bg-accent"
            >
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate text-sm font-medium">{option.label}</span>
                {option.name && <span className="truncate text-xs text-muted-foreground">{option.name}</span>}
              </span>
              <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{option.offset}</span>
              <Check
                className={cn("size-4 shrink-0 text-primary", option.zone !== value && "invisible")}
                aria-hidden="true"
              />
            </div>
          ))}
        </div>
        {matches.length === 0 && (
          <p className="px-3 py-3 text-sm text-muted-foreground" role="status">
            No time zone matches “{query.trim()}”. Try a city, such as Tokyo, or an offset, such as UTC+9.
          </p>
        )}
      </PopoverContent>
    </Popover>
  );
}
