import { useQuery } from "@tanstack/react-query";
import { Building2 } from "lucide-react";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { SearchInput } from "../../components/ui/search-input";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { clientSearchQueryOptions } from "../clients/api";

/** Typing pauses this long before the API is asked, so a word typed costs one request. */
const debounceMs = 250;

/**
 * The header's client search (S-SHELL-10): results come from the API, each links to the
 * client. Arrow keys move between the input and the results; Escape closes the list. Its label
 * says it opens a client, apart from the search boxes that filter a page's list (S-EDGE-14).
 */
export function ClientSearch({ className }: { className?: string }) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const query = useDebouncedValue(text.trim(), debounceMs);
  const results = useQuery({ ...clientSearchQueryOptions(query), enabled: query.length > 0 });
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const showList = open && query.length > 0;
  const links = () => Array.from(rootRef.current?.querySelectorAll<HTMLAnchorElement>("[data-result]") ?? []);

  const close = () => {
    setOpen(false);
    setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      setOpen(false);
      inputRef.current?.focus();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const items = links();
    if (items.length === 0) return;
    event.preventDefault();
    const at = items.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === "ArrowDown") items[Math.min(at + 1, items.length - 1)]?.focus();
    else if (at <= 0) inputRef.current?.focus();
    else items[at - 1]?.focus();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys are handled for the input and the result links inside
    <div
      ref={rootRef}
      className={cn("relative", className)}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <SearchInput
        ref={inputRef}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        placeholder="Search clients..."
        aria-label="Search clients to open one"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={showList ? listId : undefined}
        autoComplete="off"
        inputClassName="bg-muted/60 shadow-none focus-visible:bg-card [&::-webkit-search-cancel-button]:appearance-none"
      />
      {showList && (
        <div
          id={listId}
          className="absolute top-full right-0 left-0 z-40 mt-1.5 overflow-hidden rounded-lg border bg-popover shadow-lg animate-fade-in"
        >
          {results.isPending ? (
            <p className="px-3 py-3 text-sm text-muted-foreground">Searching…</p>
          ) : results.isError ? (
            <p className="px-3 py-3 text-sm text-destructive">
              {errorMessage(results.error, "The search failed. Please try again.")}
            </p>
          ) : results.data.length === 0 ? (
            <p className="px-3 py-3 text-sm text-muted-foreground">No clients match “{query}”.</p>
          ) : (
            <ul aria-label="Matching clients" className="max-h-80 overflow-y-auto p-1">
              {results.data.map((client) => (
                <li key={client.id}>
                  <Link
                    to={`/client/${client.id}`}
                    data-result
                    onClick={close}
                    className="flex items-center gap-3 rounded-md px-2.5 py-2 outline-none hover:bg-accent focus-visible:bg-accent"
                  >
                    <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-primary-subtle text-primary-subtle-foreground">
                      <Building2 className="size-3.5" aria-hidden="true" />
                    </span>
                    <span className="flex min-w-0 flex-col">
                      <span className="truncate text-sm font-medium">{client.name}</span>
                      {client.industry && (
                        <span className="truncate text-xs text-muted-foreground">{client.industry}</span>
                      )}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
