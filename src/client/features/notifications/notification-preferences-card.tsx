import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import {
  DEFAULT_DUE_SOON_DAYS,
  type DigestFrequency,
  MAX_DUE_SOON_DAYS,
  type NotificationPreferences,
} from "../../../shared/notifications";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Label } from "../../components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Skeleton } from "../../components/ui/skeleton";
import { Switch } from "../../components/ui/switch";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { notificationPreferencesQueryOptions, useSetNotificationPreferences } from "./api";

const dayChoices = Array.from({ length: MAX_DUE_SOON_DAYS }, (_, index) => index + 1);

const digestChoices: { value: DigestFrequency; label: string }[] = [
  { value: "off", label: "No digest" },
  { value: "daily", label: "Every morning" },
  { value: "weekly", label: "Monday mornings" },
];

/**
 * What Tendwell e-mails the signed-in user about (decisions 0050, 0052): a reminder some days
 * before a task falls due, an alert the morning after it falls due unsigned, and a digest of their
 * work. Each change is saved at once; security notices always go, and the card says so.
 */
export function NotificationPreferencesCard() {
  const preferences = useQuery(notificationPreferencesQueryOptions());
  return (
    <Card data-testid="notification-preferences">
      <CardHeader>
        <CardTitle>E-mail notifications</CardTitle>
        <CardDescription>
          What Tendwell e-mails you about the tasks of the clients assigned to you. Mail goes out at 08:00 in your
          firm's time zone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.data ? (
          <PreferenceControls preferences={preferences.data} />
        ) : preferences.isError ? (
          <p className="text-sm text-destructive">
            {errorMessage(preferences.error, "Your notification preferences could not be loaded.")}
          </p>
        ) : (
          <div className="flex flex-col gap-4" aria-hidden="true">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-2/3" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function PreferenceControls({ preferences }: { preferences: NotificationPreferences }) {
  const save = useSetNotificationPreferences();
  const id = useId();
  const change = (changed: Partial<NotificationPreferences>) =>
    save.mutate(
      { ...preferences, ...changed },
      {
        onSuccess: () => toast.success("Notification preferences saved"),
        onError: (error) =>
          toast.error("Failed to save your preferences", { description: errorMessage(error, "Please try again.") }),
      },
    );
  const remindersOn = preferences.dueSoonDays !== null;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-start gap-3">
        <Switch
          id={`${id}-due-soon`}
          checked={remindersOn}
          onCheckedChange={(on) => change({ dueSoonDays: on ? DEFAULT_DUE_SOON_DAYS : null })}
          disabled={save.isPending}
          aria-describedby={`${id}-due-soon-description`}
          className="mt-0.5"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <Label htmlFor={`${id}-due-soon`}>Due-soon reminders</Label>
          <p id={`${id}-due-soon-description`} className="text-xs text-muted-foreground">
            A reminder of the tasks falling due soon, sent once for each due date.
          </p>
          {remindersOn && (
            <div className="flex items-center gap-2 text-sm">
              <Select
                value={String(preferences.dueSoonDays)}
                onValueChange={(days) => change({ dueSoonDays: Number(days) })}
                disabled={save.isPending}
              >
                <SelectTrigger className="w-20" aria-label="Days before the due date">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {dayChoices.map((days) => (
                    <SelectItem key={days} value={String(days)}>
                      {days}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <span className="text-muted-foreground">
                {preferences.dueSoonDays === 1 ? "day" : "days"} before the due date
              </span>
            </div>
          )}
        </div>
      </div>

      <div className="flex items-start gap-3">
        <Switch
          id={`${id}-overdue`}
          checked={preferences.overdueAlerts}
          onCheckedChange={(overdueAlerts) => change({ overdueAlerts })}
          disabled={save.isPending}
          aria-describedby={`${id}-overdue-description`}
          className="mt-0.5"
        />
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${id}-overdue`}>Overdue alerts</Label>
          <p id={`${id}-overdue-description`} className="text-xs text-muted-foreground">
            An alert the morning after a task falls due without being signed off.
          </p>
        </div>
      </div>

      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-digest`}>Digest of your work</Label>
        <Select
          value={preferences.digest}
          onValueChange={(digest) => change({ digest: digest as DigestFrequency })}
          disabled={save.isPending}
        >
          <SelectTrigger id={`${id}-digest`} className="w-full sm:w-56" aria-describedby={`${id}-digest-description`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {digestChoices.map((choice) => (
              <SelectItem key={choice.value} value={choice.value}>
                {choice.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id={`${id}-digest-description`} className="text-xs text-muted-foreground">
          What is overdue, due today and due in the week ahead, and what you signed off.
        </p>
      </div>

      <p className="border-t pt-4 text-xs text-muted-foreground">
        Security notices (a changed password, a sign-in method added or removed, a sign-in from a new device) are always
        sent.
      </p>
    </div>
  );
}
