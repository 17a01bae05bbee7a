import { useQuery } from "@tanstack/react-query";
import { CheckCircle2 } from "lucide-react";
import { Link, useParams } from "react-router";
import type { UnsubscribeTopic } from "../../../shared/notifications";
import { BrandFrame } from "../../components/brand-frame";
import { LoadingScreen } from "../../components/loading-screen";
import { Button } from "../../components/ui/button";
import { ApiError, errorMessage } from "../../lib/api";
import { unsubscribeOfferQueryOptions, useUnsubscribe } from "./api";

/** What each kind of message is called on this page. */
const topicWords: Record<UnsubscribeTopic, string> = {
  due_soon: "due-soon reminders",
  overdue: "overdue alerts",
  digest: "digests of your work",
};

/**
 * The page an e-mail's unsubscribe link opens (decision 0052): it says what the link turns off and
 * asks first, since mail scanners open links; the button posts to the same signed address a mail
 * program's one-click unsubscribe uses. No sign-in is needed.
 */
export function UnsubscribePage() {
  const { token = "" } = useParams();
  const offer = useQuery(unsubscribeOfferQueryOptions(token));
  const unsubscribe = useUnsubscribe(token);

  if (offer.isError) {
    const status = offer.error instanceof ApiError ? offer.error.status : undefined;
    return (
      <BrandFrame
        title={
          status === 404 ? "This link does not work" : status === 410 ? "This link has expired" : "Something went wrong"
        }
        description={
          status === 404
            ? "The unsubscribe link is not valid, or its account no longer exists. Copy the whole link from the e-mail, or change your notifications in Settings."
            : status === 410
              ? "An unsubscribe link stops working a year after its e-mail was sent, or once you have changed your notifications since then. Change them in Settings."
              : errorMessage(offer.error, "Please try again.")
        }
      >
        <SettingsLink />
      </BrandFrame>
    );
  }
  if (!offer.data) {
    return <LoadingScreen />;
  }
  const what = topicWords[offer.data.topic];
  if (unsubscribe.isSuccess || !offer.data.subscribed) {
    return (
      <BrandFrame
        title="You are unsubscribed"
        description={`You will no longer receive ${what} from ${offer.data.firmName}. Security notices about your sign-in still go.`}
      >
        <CheckCircle2 className="size-10 self-center text-success" aria-hidden="true" />
        <SettingsLink />
      </BrandFrame>
    );
  }
  return (
    <BrandFrame
      title="Unsubscribe"
      description={`Stop ${what} from ${offer.data.firmName} in Tendwell? You can turn them back on in Settings.`}
    >
      <div className="flex flex-col gap-3">
        <Button onClick={() => unsubscribe.mutate()} disabled={unsubscribe.isPending}>
          {unsubscribe.isPending ? "Unsubscribing…" : `Unsubscribe from ${what}`}
        </Button>
        {unsubscribe.isError && (
          <p role="alert" className="text-center text-sm text-destructive">
            {errorMessage(unsubscribe.error, "Unsubscribing failed. Please try again.")}
          </p>
        )}
      </div>
      <SettingsLink />
    </BrandFrame>
  );
}

function SettingsLink() {
  return (
    <Link to="/settings" className="self-center text-sm font-medium text-primary hover:underline">
      Notification settings
    </Link>
  );
}
