import { type FormEvent, useEffect, useRef } from "react";
import { type BlockerFunction, NavigationType, useBlocker } from "react-router";

/*
 * How an open dialog meets the browser's Back and Forward (docs/design/signed-in-app.md, "Dialogs and
 * the Back button"): a history move closes the dialog and the page stays, as Escape would; the next
 * Back leaves the page as usual. Nothing is added to the history, so a dialog closed any other way,
 * or one that leads to another page, leaves the history exactly as it found it.
 */

/** Only Back and Forward (a POP) are held: links and navigate() from inside a dialog still go where they lead. */
const holdBackAndForward: BlockerFunction = ({ historyAction }) => historyAction === NavigationType.Pop;

/**
 * Mounted beside a dialog's root. While the dialog is open, React Router holds the history move and
 * puts the page's entry back, and the move becomes a close through the dialog's own onOpenChange, so
 * its guards apply (a dialog that is saving stays open). Only the open dialogs hold moves: React
 * Router asks the last one registered, which is the one on top.
 */
export function CloseOnBack({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return open ? <HoldHistoryMoves onMove={() => onOpenChange(false)} /> : null;
}

function HoldHistoryMoves({ onMove }: { onMove: () => void }) {
  const blocker = useBlocker(holdBackAndForward);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    blocker.reset();
    onMove();
  }, [blocker, onMove]);
  return null;
}

/**
 * React Router never sees a Back that leaves the document (the dialog is open on the first page the
 * tab loaded, or after a reload), nor a reload or a closed tab. Once something has been typed into a
 * form of the open dialog, those ask the browser to confirm first. Returns the dialog's onInput handler.
 */
export function useConfirmLeavingTypedData(): (event: FormEvent<HTMLElement>) => void {
  const typed = useRef(false);
  useEffect(() => {
    const confirmLeaving = (event: BeforeUnloadEvent) => {
      if (typed.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", confirmLeaving);
    return () => window.removeEventListener("beforeunload", confirmLeaving);
  }, []);
  return (event) => {
    if (event.target instanceof Element && event.target.closest("form")) typed.current = true;
  };
}
