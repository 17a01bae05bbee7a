import { Search } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";
import { Input } from "./input";

/**
 * A search field with its magnifier inside, on the left. `className` places the box in its row;
 * `inputClassName` styles the field itself; everything else is the field's (value, label, ref...).
 */
export function SearchInput({
  className,
  inputClassName,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { inputClassName?: string }) {
  return (
    <div className={cn("relative", className)}>
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <Input type="search" className={cn("pl-9", inputClassName)} {...props} />
    </div>
  );
}
