import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";
import { Input } from "./input";

/**
 * The field for an authenticator app's 6-digit code: the phone's number pad, and the browser may
 * offer a code it received (one-time-code). Spaces are allowed ("123 456" as some apps show it);
 * the schema drops them.
 */
export function CodeInput({ className, ...props }: ComponentProps<"input">) {
  return (
    <Input
      autoComplete="one-time-code"
      inputMode="numeric"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={7}
      className={cn("max-w-40 font-mono tracking-widest", className)}
      {...props}
    />
  );
}
