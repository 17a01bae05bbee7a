import { Download } from "lucide-react";
import { useState } from "react";
import { downloadText, formatRecoveryCode, recoveryCodesFileName, recoveryCodesText } from "../lib/recovery-codes";
import { Button } from "./ui/button";
import { CopyButton } from "./ui/copy-button";

/**
 * A new set of recovery codes, shown this once (the server keeps only their hashes): the codes,
 * and two ways to keep them, copied or as a text file.
 */
export function RecoveryCodes({
  codes,
  owner,
}: {
  codes: readonly string[];
  /** Whose codes they are, as the text file names them. */
  owner: { username: string; firmName: string };
}) {
  const [made] = useState(() => new Date());
  const text = recoveryCodesText(codes, owner, made);
  return (
    <div className="flex flex-col gap-3">
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-x-6 gap-y-1.5 rounded-md border bg-muted px-4 py-3 font-mono text-sm min-[400px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{formatRecoveryCode(code)}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={text}>Copy codes</CopyButton>
        <Button variant="outline" size="sm" onClick={() => downloadText(recoveryCodesFileName(made), text)}>
          <Download aria-hidden="true" />
          Download as .txt
        </Button>
      </div>
    </div>
  );
}
