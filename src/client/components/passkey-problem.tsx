import type { PasskeyProblem } from "../lib/passkeys";
import { FormAlert } from "./ui/form";

/**
 * Why the last passkey attempt came to nothing: a closed prompt is said calmly, as a status (the
 * person chose it, and may try again or use another way); a refusal is an alert.
 */
export function PasskeyProblemMessage({ problem }: { problem: PasskeyProblem | undefined }) {
  if (!problem) return null;
  if (!problem.cancelled) return <FormAlert>{problem.message}</FormAlert>;
  return (
    <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
      {problem.message}
    </p>
  );
}
