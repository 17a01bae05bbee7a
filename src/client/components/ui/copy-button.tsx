import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "./button";
import { toast } from "./toaster";

/**
 * Copies `text` to the clipboard, and says so on the button for two seconds. Where the browser
 * refuses (no permission, an old browser), a toast says to select and copy the text instead.
 */
export function CopyButton({
  text,
  children,
  ...props
}: { text: string; children: string } & Omit<ButtonProps, "onClick" | "children">) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => toast.error("Could not copy", { description: "Select the text and copy it yourself." }),
    );

  return (
    <Button variant="outline" size="sm" onClick={() => void copy()} {...props}>
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {/* The new label is announced, so a screen reader hears that the copy worked. */}
      <span aria-live="polite">{copied ? "Copied" : children}</span>
    </Button>
  );
}
