import { ShieldOff } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { type Action, can } from "../../shared/permissions";
import type { Role } from "../../shared/roles";
import { type Back, BackLink } from "./ui/back-link";
import { Button } from "./ui/button";
import { EmptyState } from "./ui/empty-state";

/**
 * A page only some roles may open (src/shared/permissions.ts): the page, `children`, for a role
 * that may do `action`; for any other "Not allowed", `refusal` saying who may, and the way back.
 * Nothing while the signed-in user's role is still unknown.
 */
export function PermissionGate({
  role,
  action,
  refusal,
  back,
  children,
}: {
  role: Role | undefined;
  action: Action;
  refusal: string;
  back: Back;
  children: ReactNode;
}) {
  if (!role) return null;
  if (can(role, action)) return children;
  return (
    <div className="flex flex-col gap-4">
      <BackLink {...back} />
      <EmptyState
        icon={ShieldOff}
        title="Not allowed"
        description={refusal}
        action={
          <Button asChild variant="outline">
            <Link to={back.to}>{back.label}</Link>
          </Button>
        }
      />
    </div>
  );
}
