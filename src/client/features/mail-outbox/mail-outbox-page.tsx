import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ChevronRight, Inbox, Info, Mail, Send } from "lucide-react";
import { useId, useState } from "react";
import type { MailKind, MailStatus, OutboxMessage } from "../../../shared/mail-outbox";
import { PermissionGate } from "../../components/permission-gate";
import { type Back, BackLink } from "../../components/ui/back-link";
import { Badge, type BadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDateFormat } from "../../lib/firm";
import { currentUserQueryOptions } from "../auth/api";
import { mailOutboxQueryOptions, type OutboxPage } from "./api";

/*
 * Outgoing mail (decision 0049): the firm's messages as the outbox holds them, for its super
 * admins, at /settings/outbox. A table at desktop widths; below md each row stacks as a card.
 */

const kindLabels: Record<MailKind, string> = {
  security_notice: "Security notice",
  due_soon: "Reminder",
  overdue: "Overdue alert",
  digest: "Digest",
};

const statusBadges: Record<MailStatus, { label: string; variant: BadgeVariant }> = {
  sent: { label: "Sent", variant: "success" },
  kept: { label: "Kept", variant: "secondary" },
  pending: { label: "Waiting", variant: "warning" },
  sending: { label: "Sending", variant: "outline" },
  failed: { label: "Failed", variant: "destructive" },
};

const back: Back = { to: "/settings", label: "Back to Settings" };

export function MailOutboxPage() {
  const { data: user } = useQuery(currentUserQueryOptions());
  return (
    <PermissionGate
      role={user?.role}
      action="mail.read"
      refusal="Only super admins can view the firm's outgoing e-mail."
      back={back}
    >
      <Outbox />
    </PermissionGate>
  );
}

function Outbox() {
  const pages = useInfiniteQuery(mailOutboxQueryOptions(true));
  const messages = pages.data?.pages.flatMap((page) => page.messages) ?? [];
  const delivery = pages.data?.pages[0]?.delivery;

  return (
    <div className="flex flex-col gap-5">
      <BackLink {...back} />
      <PageHeader description="Every e-mail Tendwell wrote for your firm's users, newest first, and where it stands." />
      {delivery && <DeliveryNote delivery={delivery} />}
      {pages.isPending ? (
        <div className="flex flex-col gap-2" role="status" aria-label="Loading messages">
          {Array.from({ length: 5 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={index} className="h-14 w-full" />
          ))}
        </div>
      ) : pages.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(pages.error, "The outgoing mail could not be loaded. Please try again.")}
        </p>
      ) : messages.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title="No e-mail yet"
          description="Security notices, reminders, overdue alerts and digests appear here once they are written."
        />
      ) : (
        <>
          <MessageTable messages={messages} />
          <div className="flex flex-col items-center gap-2">
            {pages.hasNextPage ? (
              <Button variant="outline" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            ) : (
              <p className="text-xs text-muted-foreground">
                {messages.length === 1 ? "1 message" : `${messages.length} messages`} — the oldest kept
              </p>
            )}
          </div>
        </>
      )}
    </div>
  );
}

function DeliveryNote({ delivery }: { delivery: OutboxPage["delivery"] }) {
  const sends = delivery === "smtp";
  const Icon = sends ? Send : Info;
  return (
    <div
      role="status"
      data-testid="mail-delivery"
      className={cn(
        "flex items-start gap-3 rounded-lg border px-4 py-3 text-sm",
        sends
          ? "border-success/30 bg-success-subtle text-success-subtle-foreground"
          : "border-warning/30 bg-warning-subtle text-warning-subtle-foreground",
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        {sends
          ? "Mail is sent over SMTP"
          : "Mail is not sent: SMTP_URL is not set; messages are kept here and in the log"}
      </p>
    </div>
  );
}

function MessageTable({ messages }: { messages: OutboxMessage[] }) {
  return (
    <div className="md:rounded-lg md:border md:bg-card">
      <table className="block w-full text-sm md:table md:table-fixed" aria-label="Outgoing mail">
        <thead className="hidden border-b bg-muted/50 text-left text-xs text-muted-foreground md:table-header-group">
          <tr>
            <th scope="col" className="w-48 px-4 py-2 font-medium">
              When
            </th>
            <th scope="col" className="w-52 px-3 py-2 font-medium">
              To
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Subject
            </th>
            <th scope="col" className="w-34 px-3 py-2 font-medium">
              Kind
            </th>
            <th scope="col" className="w-40 px-4 py-2 font-medium">
              Status
            </th>
          </tr>
        </thead>
        <tbody className="flex flex-col gap-2 md:table-row-group md:divide-y">
          {messages.map((message) => (
            <MessageRow key={message.id} message={message} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MessageRow({ message }: { message: OutboxMessage }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const format = useDateFormat();
  const status = statusBadges[message.status];
  return (
    <>
      <tr
        data-testid="outbox-message"
        className={cn(
          "flex flex-wrap items-center gap-x-2 gap-y-1.5 rounded-lg border bg-card p-4 md:table-row md:rounded-none md:border-0 md:bg-transparent md:p-0",
          open && "rounded-b-none border-b-0",
        )}
      >
        <td className="order-3 w-full text-xs text-muted-foreground md:order-none md:w-auto md:whitespace-nowrap md:px-4 md:py-3 md:align-top md:text-sm md:text-foreground">
          <time dateTime={message.createdAt}>{format(message.createdAt, true)}</time>
        </td>
        <td className="order-2 w-full min-w-0 md:order-none md:w-auto md:px-3 md:py-3 md:align-top">
          <span className="block truncate font-medium md:font-normal">{message.to.name}</span>
          <span className="block truncate text-xs text-muted-foreground" title={message.to.address}>
            {message.to.address}
          </span>
        </td>
        <td className="order-1 w-full min-w-0 md:order-none md:w-auto md:px-3 md:py-3 md:align-top">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen(!open)}
            className="-mx-1 flex w-full items-start gap-1 rounded-md px-1 text-left font-medium hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <ChevronRight
              className={cn("mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform", open && "rotate-90")}
              aria-hidden="true"
            />
            <span className="min-w-0 break-words">{message.subject}</span>
          </button>
        </td>
        <td className="order-4 md:order-none md:px-3 md:py-3 md:align-top">
          <Badge variant="outline">{kindLabels[message.kind]}</Badge>
        </td>
        <td className="order-5 min-w-0 max-w-full md:order-none md:px-4 md:py-3 md:align-top">
          <Badge variant={status.variant}>{status.label}</Badge>
          {message.status === "failed" && message.lastError && (
            <p className="mt-1 line-clamp-2 break-words text-xs text-destructive" title={message.lastError}>
              {message.lastError}
            </p>
          )}
        </td>
      </tr>
      {open && (
        <tr
          id={bodyId}
          className="-mt-2 block rounded-b-lg border border-t-0 bg-card px-4 pb-4 md:mt-0 md:table-row md:rounded-none md:border-0 md:bg-transparent md:p-0"
        >
          <td colSpan={5} className="block md:table-cell md:px-4 md:pb-4">
            <MessageDetails message={message} />
          </td>
        </tr>
      )}
    </>
  );
}

function MessageDetails({ message }: { message: OutboxMessage }) {
  const format = useDateFormat();
  const facts = [
    `${message.attempts === 1 ? "1 try" : `${message.attempts} tries`}`,
    message.nextAttemptAt && `next try ${format(message.nextAttemptAt, true)}`,
    message.settledAt && `${statusBadges[message.status].label.toLowerCase()} ${format(message.settledAt, true)}`,
  ].filter(Boolean);
  return (
    <div className="flex flex-col gap-2 rounded-md border bg-muted/40 p-3">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <Mail className="size-3.5" aria-hidden="true" />
        {facts.join(" · ")}
      </p>
      {message.lastError && (
        <p
          className={cn(
            "break-words text-xs",
            message.status === "failed" ? "text-destructive" : "text-muted-foreground",
          )}
        >
          {message.status === "failed" ? "Not sent: " : "Last refusal: "}
          {message.lastError}
        </p>
      )}
      <pre className="whitespace-pre-wrap break-words font-sans text-sm">{message.text}</pre>
    </div>
  );
}
