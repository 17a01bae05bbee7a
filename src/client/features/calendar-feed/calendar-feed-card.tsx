import { useQuery } from "@tanstack/react-query";
import { CalendarPlus, RefreshCw, ShieldAlert } from "lucide-react";
import { useId, useState } from "react";
import type { CalendarFeed } from "../../../shared/calendar-feed";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { CopyButton } from "../../components/ui/copy-button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Skeleton } from "../../components/ui/skeleton";
import { Switch } from "../../components/ui/switch";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import {
  calendarFeedQueryOptions,
  useCreateCalendarFeed,
  useRegenerateCalendarFeed,
  useTurnOffCalendarFeed,
  useUpdateCalendarFeed,
} from "./api";

/**
 * The signed-in user's calendar feed (decision 0047): a secret address their calendar app
 * subscribes to, showing the open tasks of their clients on their due dates. Whoever holds the
 * address sees those tasks, so the card says so, offers to hide client names, and replaces or
 * turns off the address after a confirmation that says what stops working.
 */
export function CalendarFeedCard() {
  const feed = useQuery(calendarFeedQueryOptions());
  return (
    <Card data-testid="calendar-feed">
      <CardHeader>
        <CardTitle>Calendar feed</CardTitle>
        <CardDescription>
          See your open tasks in Google Calendar, Outlook or Apple Calendar, each on its due date. Your calendar app
          checks for changes about once an hour.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {feed.data ? (
          feed.data.feed ? (
            <FeedDetails feed={feed.data.feed} />
          ) : (
            <NoFeed />
          )
        ) : feed.isError ? (
          <p className="text-sm text-destructive">
            {errorMessage(feed.error, "Your calendar feed could not be loaded.")}
          </p>
        ) : (
          <div className="flex flex-col gap-3" aria-hidden="true">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-48" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function NoFeed() {
  const create = useCreateCalendarFeed();
  // A promise, not mutate's callbacks: the feed's details replace this part when it is made, and
  // callbacks of an unmounted component's mutate never run.
  const onCreate = () =>
    create.mutateAsync({ hideClientNames: false }).then(
      () => toast.success("Calendar feed created", { description: "Copy its address into your calendar app." }),
      (error: unknown) =>
        toast.error("Failed to create the feed", { description: errorMessage(error, "Please try again.") }),
    );
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        You get a private address for your calendar app to subscribe to. It lists the open tasks of the clients assigned
        to you.
      </p>
      <Button className="self-start" onClick={onCreate} disabled={create.isPending}>
        <CalendarPlus aria-hidden="true" />
        {create.isPending ? "Creating..." : "Create calendar feed"}
      </Button>
    </div>
  );
}

function FeedDetails({ feed }: { feed: CalendarFeed }) {
  const [confirming, setConfirming] = useState<"regenerate" | "turnOff">();
  const addressId = useId();
  const hideId = useId();
  const update = useUpdateCalendarFeed();

  const onHide = (hideClientNames: boolean) =>
    update.mutate(
      { hideClientNames },
      {
        onSuccess: (saved) =>
          toast.success(saved?.hideClientNames ? "Client names hidden" : "Client names shown", {
            description: "Your calendar shows the change at its next update.",
          }),
        onError: (error) =>
          toast.error("Failed to change the feed", { description: errorMessage(error, "Please try again.") }),
      },
    );

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <Label htmlFor={addressId}>Feed address</Label>
        {feed.url ? (
          <>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                id={addressId}
                readOnly
                value={feed.url}
                className="font-mono text-xs"
                onFocus={(event) => event.currentTarget.select()}
                data-testid="calendar-feed-url"
              />
              <CopyButton text={feed.url} className="h-9 self-start sm:self-auto">
                Copy
              </CopyButton>
            </div>
            <p className="flex gap-2 text-xs text-muted-foreground">
              <ShieldAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
              Add it to your calendar app as a subscription (“From URL” or “New calendar subscription”). Anyone with
              this address can see your tasks: keep it to yourself.
            </p>
          </>
        ) : (
          <p id={addressId} className="rounded-md border border-dashed px-3 py-3 text-sm text-muted-foreground">
            This address can no longer be shown. Regenerate it to get a new one.
          </p>
        )}
      </div>
      <div className="flex items-start gap-3">
        <Switch
          id={hideId}
          checked={feed.hideClientNames}
          onCheckedChange={onHide}
          disabled={update.isPending}
          aria-describedby={`${hideId}-description`}
          className="mt-0.5"
        />
        <div className="flex flex-col gap-1">
          <Label htmlFor={hideId}>Hide client names</Label>
          <p id={`${hideId}-description`} className="text-xs text-muted-foreground">
            Events show the task's title only, for a calendar that others can see.
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant="outline" onClick={() => setConfirming("regenerate")}>
          <RefreshCw aria-hidden="true" />
          Regenerate address
        </Button>
        <Button
          variant="outline"
          className="text-destructive hover:text-destructive"
          onClick={() => setConfirming("turnOff")}
        >
          Turn off feed
        </Button>
      </div>
      <RegenerateDialog open={confirming === "regenerate"} onClose={() => setConfirming(undefined)} />
      <TurnOffDialog open={confirming === "turnOff"} onClose={() => setConfirming(undefined)} />
    </div>
  );
}

function RegenerateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const regenerate = useRegenerateCalendarFeed();
  const onRegenerate = () =>
    regenerate.mutate(undefined, {
      onSuccess: () =>
        toast.success("New address made", { description: "Subscribe your calendar app to the new address." }),
      onError: (error) =>
        toast.error("Failed to make a new address", { description: errorMessage(error, "Please try again.") }),
      onSettled: onClose,
    });
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !regenerate.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Make a new feed address?</AlertDialogTitle>
          <AlertDialogDescription>
            The current address stops working at once: calendars subscribed to it stop updating until you subscribe them
            to the new one.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={regenerate.isPending}>Cancel</AlertDialogCancel>
          <Button disabled={regenerate.isPending} onClick={onRegenerate}>
            {regenerate.isPending ? "Regenerating..." : "Regenerate address"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function TurnOffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const turnOff = useTurnOffCalendarFeed();
  // A promise, as for creating: the card shows "no feed" as soon as it is gone, unmounting this dialog.
  const onTurnOff = () =>
    turnOff.mutateAsync(undefined).then(
      () => toast.success("Calendar feed turned off", { description: "Its address no longer works." }),
      (error: unknown) => {
        toast.error("Failed to turn off the feed", { description: errorMessage(error, "Please try again.") });
        onClose();
      },
    );
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !turnOff.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Turn off your calendar feed?</AlertDialogTitle>
          <AlertDialogDescription>
            Its address stops working at once, and calendars subscribed to it stop showing your tasks. You can create a
            new feed later.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={turnOff.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={turnOff.isPending} onClick={onTurnOff}>
            {turnOff.isPending ? "Turning off..." : "Turn off feed"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
