import type { ClientDetail } from "../../../shared/clients";
import { roleLabels } from "../../../shared/permissions";
import { Badge, roleBadgeVariant } from "../../components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { initials } from "../../lib/user-display";

/** S-CDET-09..11: how many users serve this client, and each one's name, @username and role. */
export function TeamCard({ team }: { team: ClientDetail["team"] }) {
  return (
    <Card data-testid="team">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>Assigned Team</CardTitle>
        <Badge variant="secondary" data-testid="team-count" aria-label={`${team.length} assigned`}>
          {team.length}
        </Badge>
      </CardHeader>
      <CardContent>
        {team.length === 0 ? (
          <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            No users are assigned to this client yet. Super admins can assign users from User Management.
          </p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Assigned team">
            {team.map((member) => (
              <li key={member.id} className="flex items-center gap-3" data-testid="team-member">
                <span
                  className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-subtle text-xs font-semibold text-primary-subtle-foreground"
                  aria-hidden="true"
                >
                  {initials(member.fullName)}
                </span>
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate text-sm font-medium">{member.fullName}</span>
                  <span className="truncate text-xs text-muted-foreground">@{member.username}</span>
                </div>
                <Badge variant={roleBadgeVariant[member.role]}>{roleLabels[member.role]}</Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
