import { Share2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/**
 * Share (S-BPOST-11): the browser's own share sheet where there is one (phones,
 * some desktops), otherwise the page's URL is copied to the clipboard and a short message says
 * so in a polite live region, which is rendered empty from the start so screen readers announce
 * the change.
 */
export function ShareButton({ title, text }: { title: string; text: string }) {
  const [message, setMessage] = useState("");
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const say = (next: string) => {
    setMessage(next);
    clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => setMessage(""), 4000);
  };

  const share = async () => {
    const url = window.location.href;
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, text, url });
      } catch (error) {
        // Closing the share sheet is the visitor's choice, not a failure.
        if ((error as Error).name !== "AbortError") say("Could not open sharing. Copy the address bar instead.");
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      say("Link copied");
    } catch {
      say("Could not copy the link. Copy the address bar instead.");
    }
  };

  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        onClick={() => void share()}
        className="inline-flex h-9 items-center gap-2 rounded-md border border-input bg-card px-4 font-medium text-foreground text-sm shadow-xs outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      >
        <Share2 aria-hidden="true" className="size-4" />
        Share
      </button>
      <p role="status" aria-live="polite" className="text-muted-foreground text-sm">
        {message}
      </p>
    </div>
  );
}
