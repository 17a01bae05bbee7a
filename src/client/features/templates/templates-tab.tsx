import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, LayoutTemplate, Library, Plus, SearchX } from "lucide-react";
import { useState } from "react";
import { can } from "../../../shared/permissions";
import type { Template } from "../../../shared/templates";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { SearchInput } from "../../components/ui/search-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Skeleton } from "../../components/ui/skeleton";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useDateFormat } from "../../lib/firm";
import { currentUserQueryOptions } from "../auth/api";
import { templatesQueryOptions, useDeleteTemplate } from "./api";
import { TemplateCard } from "./template-card";
import { TemplateDetailsDialog } from "./template-details-dialog";
import { TemplateFormDialog } from "./template-form-dialog";
import { TemplateLibraryDialog } from "./template-library-dialog";

type Kind = "all" | "recurring" | "one-time";
const kindLabels: Record<Kind, string> = { all: "All types", recurring: "Recurring", "one-time": "One-time" };

/** S-TTPL-25 and S-ERR-18: the exact words of the confirmation. */
export const deleteConfirmation = "Are you sure you want to delete this task template? This action cannot be undone.";

/**
 * The templates tab (the TTPL requirements). A firm has tens of templates, not thousands (plans cap
 * custom ones at 20 or 50), so the whole list is read once and searched and filtered here.
 */
export function TemplatesTab() {
  const { data: user } = useQuery(currentUserQueryOptions());
  const templates = useQuery(templatesQueryOptions());
  const formatDate = useDateFormat();
  const remove = useDeleteTemplate();
  const [text, setText] = useState("");
  const [kind, setKind] = useState<Kind>("all");
  const [creating, setCreating] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const [viewing, setViewing] = useState<Template | null>(null);
  const [editing, setEditing] = useState<Template | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);

  const mayCreate = user ? can(user.role, "templates.create") : false;
  // S-ROLE-02: Edit and Delete are for super_admin only ("templates.manage").
  const mayManage = user ? can(user.role, "templates.manage") : false;

  const words = text.trim().toLowerCase();
  // Newest first: the template just created or added from the library is the first card.
  const all = [...(templates.data ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const shown = all.filter(
    (template) =>
      (kind === "all" || (kind === "recurring") === template.isRecurring) &&
      (!words || `${template.name} ${template.description}`.toLowerCase().includes(words)),
  );

  const confirmDelete = (template: Template) =>
    remove.mutate(template.id, {
      onSuccess: () => {
        toast.success("Task template deleted successfully!");
        setDeleting(null);
      },
      onError: (error) => {
        toast.error("Failed to delete task template", { description: errorMessage(error, "Please try again.") });
        setDeleting(null);
      },
    });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 lg:flex-row lg:items-center">
        <div className="flex flex-1 flex-col gap-2 sm:flex-row">
          <SearchInput
            className="flex-1"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Search templates..."
            aria-label="Search templates"
          />
          <Select value={kind} onValueChange={(value) => setKind(value as Kind)}>
            <SelectTrigger className="sm:w-40" aria-label="Filter by type">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {(Object.keys(kindLabels) as Kind[]).map((value) => (
                <SelectItem key={value} value={value}>
                  {kindLabels[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {mayCreate && (
          <div className="flex gap-2">
            <Button variant="outline" onClick={() => setBrowsing(true)} className="flex-1 lg:flex-none">
              <Library aria-hidden="true" />
              Browse library
            </Button>
            <Button onClick={() => setCreating(true)} className="flex-1 lg:flex-none">
              <Plus aria-hidden="true" />
              New Task Template
            </Button>
          </div>
        )}
      </div>

      {templates.isPending ? (
        <TemplatesSkeleton />
      ) : templates.isError ? (
        <Card role="alert" className="flex flex-col items-start gap-3 p-6">
          <div className="flex items-center gap-2 font-medium">
            <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
            Templates could not be loaded
          </div>
          <p className="text-sm text-muted-foreground">{errorMessage(templates.error, "Please try again.")}</p>
          <Button variant="outline" size="sm" onClick={() => templates.refetch()}>
            Try again
          </Button>
        </Card>
      ) : all.length === 0 ? (
        <EmptyState
          icon={LayoutTemplate}
          title="No Task Templates Yet"
          description={
            mayCreate
              ? "Templates describe work you do for many clients. Create one, or add ready-made ones from the library."
              : "Templates your firm creates will appear here."
          }
          action={
            mayCreate && (
              <Button onClick={() => setCreating(true)}>
                <Plus aria-hidden="true" />
                Create First Template
              </Button>
            )
          }
        />
      ) : shown.length === 0 ? (
        <EmptyState icon={SearchX} title="No templates found" description="Try a different search term or type." />
      ) : (
        <ul aria-label="Task templates" className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
          {shown.map((template) => (
            <li key={template.id}>
              <TemplateCard
                template={template}
                formatDate={formatDate}
                onView={() => setViewing(template)}
                onEdit={mayManage ? () => setEditing(template) : undefined}
                onDelete={mayManage ? () => setDeleting(template) : undefined}
              />
            </li>
          ))}
        </ul>
      )}

      <TemplateFormDialog mode="create" open={creating} onOpenChange={setCreating} />
      <TemplateFormDialog
        mode="edit"
        template={editing ?? undefined}
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
      />
      <TemplateDetailsDialog
        template={viewing}
        formatDate={formatDate}
        onOpenChange={(open) => {
          if (!open) setViewing(null);
        }}
      />
      {mayCreate && <TemplateLibraryDialog open={browsing} onOpenChange={setBrowsing} />}

      <AlertDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setDeleting(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete task template</AlertDialogTitle>
            <AlertDialogDescription>{deleteConfirmation}</AlertDialogDescription>
          </AlertDialogHeader>
          {deleting && (
            <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm font-medium break-words">{deleting.name}</p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              disabled={remove.isPending}
              onClick={(event) => {
                // The dialog stays open until the answer comes, so a failure is not silent.
                event.preventDefault();
                if (deleting) confirmDelete(deleting);
              }}
            >
              {remove.isPending ? "Deleting..." : "Delete"}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function TemplatesSkeleton() {
  return (
    <div
      className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3"
      role="status"
      aria-label="Loading templates"
      data-testid="templates-skeleton"
    >
      {[1, 2, 3, 4, 5, 6].map((key) => (
        <Card key={key} className="flex flex-col gap-3 p-4">
          <div className="flex gap-2">
            <Skeleton className="h-5 w-24 rounded-full" />
            <Skeleton className="h-5 w-20 rounded-full" />
          </div>
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-4/5" />
          <Skeleton className="mt-2 h-8 w-28" />
        </Card>
      ))}
    </div>
  );
}
