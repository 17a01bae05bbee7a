import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from "react";
import { StepUpContext } from "../../lib/step-up";

// Its form and checks load the first time a change asks for it: most visits never need it.
const StepUpDialog = lazy(() => import("./step-up-dialog").then((m) => ({ default: m.StepUpDialog })));

type Asking = { promise: Promise<boolean>; answer: (confirmed: boolean) => void };

/**
 * The one "Confirm it's you" dialog of the signed-in app (lib/step-up.ts). Changes that ask for it
 * at the same moment wait for the same answer, so the person is asked once.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const asking = useRef<Asking | null>(null);
  const [open, setOpen] = useState(false);

  const confirm = useCallback(() => {
    if (!asking.current) {
      let answer: (confirmed: boolean) => void = () => {};
      const promise = new Promise<boolean>((resolve) => {
        answer = resolve;
      });
      asking.current = { promise, answer };
      setOpen(true);
    }
    return asking.current.promise;
  }, []);

  const close = (confirmed: boolean) => {
    asking.current?.answer(confirmed);
    asking.current = null;
    setOpen(false);
  };

  return (
    <StepUpContext value={confirm}>
      {children}
      {open && (
        <Suspense fallback={null}>
          <StepUpDialog onDone={close} />
        </Suspense>
      )}
    </StepUpContext>
  );
}
