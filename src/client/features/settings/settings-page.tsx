import { useQuery } from "@tanstack/react-query";
import { Bell, ChevronRight, type LucideIcon, Mail, ScrollText, Settings2, ShieldCheck, UserCog } from "lucide-react";
import { Link } from "react-router";
import { can } from "../../../shared/permissions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { PageHeader } from "../../components/ui/page-header";
import { currentUserQueryOptions } from "../auth/api";
import { ChangePasswordCard } from "../auth/change-password-card";
import { CalendarFeedCard } from "../calendar-feed/calendar-feed-card";
import { DisasterReliefCard } from "../due-dates/disaster-relief-card";
import { DeadlinesCard } from "../firm/deadlines-card";
import { FirmCard } from "../firm/firm-card";
import { MfaPolicyCard } from "../mfa/mfa-policy-card";
import { SignInSecurityCard } from "../mfa/sign-in-security-card";
import { NotificationPreferencesCard } from "../notifications/notification-preferences-card";

/*
 * Four static cards that list features and do nothing (S-SET-01..05). Issue 9 adds what
 * works below them, under their own heading: the password change for everyone, the firm's name
 * and time zone for a super admin, and the audit trail for super admins and admins
 * (docs/design/audit-trail-and-settings.md). Issue 20 adds two-step sign-in there: each user's own
 * factors and recovery codes, and the firm's policy for a super admin (decision 0044). Issue 21 adds
 * each user's calendar feed of their open tasks (decision 0047), and for super admins the firm's
 * outgoing mail (decision 0049).
 */
const staticCards: { title: string; description: string; icon: LucideIcon; features: string[] }[] = [
  {
    title: "Account Management",
    description: "Your profile and how you sign in.",
    icon: UserCog,
    features: ["Profile and contact details", "Password changes", "Sign-in sessions", "Your role and permissions"],
  },
  {
    title: "Notification Preferences",
    description: "What Tendwell tells you about, and when.",
    icon: Bell,
    features: ["Overdue task alerts", "Task assignment notices", "Weekly activity digest", "Client status changes"],
  },
  {
    title: "Security Settings",
    description: "How your firm's data is protected.",
    icon: ShieldCheck,
    features: ["Password requirements", "Session timeouts", "Role-based access", "Tamper-evident audit trail"],
  },
  {
    title: "System Preferences",
    description: "How the workspace behaves for your firm.",
    icon: Settings2,
    features: ["Firm name and time zone", "Date and time formats", "Default task priority", "Data export"],
  },
];

export function SettingsPage() {
  const { data: user } = useQuery(currentUserQueryOptions());
  const role = user?.role;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader description="Manage your account, your firm and how Tendwell works for you." />
      <section aria-label="Settings overview" className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {staticCards.map((card) => (
          <Card key={card.title} data-testid="settings-card">
            <CardHeader className="flex-row items-start gap-3">
              <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary-subtle text-primary-subtle-foreground">
                <card.icon className="size-5" aria-hidden="true" />
              </div>
              <div className="flex min-w-0 flex-col gap-1">
                <CardTitle>{card.title}</CardTitle>
                <CardDescription>{card.description}</CardDescription>
              </div>
            </CardHeader>
            <CardContent>
              <ul className="flex flex-col gap-1.5 text-sm">
                {card.features.map((feature) => (
                  <li key={feature} className="flex items-center gap-2">
                    <span className="size-1.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </section>

      <section aria-labelledby="settings-manage" className="flex flex-col gap-4">
        <h2 id="settings-manage" className="text-base font-semibold">
          Your account and firm
        </h2>
        <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
          <ChangePasswordCard />
          <SignInSecurityCard />
          <NotificationPreferencesCard />
          <CalendarFeedCard />
          {role && can(role, "dueDates.override") && <DisasterReliefCard />}
          {role && can(role, "firm.manage") && <FirmCard />}
          {role && can(role, "firm.manage") && <DeadlinesCard />}
          {role && can(role, "security.manage") && <MfaPolicyCard />}
          {role && can(role, "audit.read") && (
            <Card>
              <CardHeader>
                <CardTitle>Audit trail</CardTitle>
                <CardDescription>
                  Every change in your firm: who made it, when and from where, with a check that no record was altered.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <Link
                  to="/settings/audit-trail"
                  className="inline-flex items-center gap-2 rounded-md text-sm font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <ScrollText className="size-4" aria-hidden="true" />
                  Open the audit trail
                  <ChevronRight className="size-4" aria-hidden="true" />
                </Link>
              </CardContent>
            </Card>
          )}
          {role && can(role, "mail.read") && (
            <Card>
              <CardHeader>
                <CardTitle>Outgoing mail</CardTitle>
                <CardDescription>
                  The e-mail Tendwell wrote for your firm's users: what was sent, is waiting or failed, and its text.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <Link
                  to="/settings/outbox"
                  className="inline-flex items-center gap-2 rounded-md text-sm font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Mail className="size-4" aria-hidden="true" />
                  Open outgoing mail
                  <ChevronRight className="size-4" aria-hidden="true" />
                </Link>
              </CardContent>
            </Card>
          )}
        </div>
      </section>
    </div>
  );
}
