import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { createTaskSchema, type Task, taskPriorities } from "../../../shared/tasks";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { EditConflictNotice, useEditConflict } from "../../components/ui/edit-conflict";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Textarea } from "../../components/ui/textarea";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { clientDetailQueryOptions, type TaskChange, useSaveTask } from "./api";
import { dayInZone, endOfDayInZone } from "./due-dates";
import { priorityLabels } from "./task-labels";

/** The route's own rules for name and description; the due date is a day, made an instant on submit. */
const taskFormSchema = z.object({
  name: createTaskSchema.shape.name,
  description: createTaskSchema.shape.description,
  priority: z.enum(taskPriorities),
  dueDate: z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, "Enter a date, or leave it empty"),
});
type TaskFields = z.input<typeof taskFormSchema>;

/** Add Task (POST /api/tasks), or Edit Task (PATCH /api/tasks/{id}) when `task` is given. */
export function TaskDialog({
  clientId,
  task,
  timeZone,
  open,
  onOpenChange,
}: {
  clientId: string;
  task: Task | undefined;
  timeZone: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{task ? "Edit Task" : "Add Task"}</DialogTitle>
          <DialogDescription>
            {task ? "Change this task while it is open." : "New work for this client. It starts as pending."}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted with each opening, so the form starts from the task as it is now. */}
        <TaskForm clientId={clientId} task={task} timeZone={timeZone} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TaskForm({
  clientId,
  task,
  timeZone,
  onDone,
}: {
  clientId: string;
  task: Task | undefined;
  timeZone: string;
  onDone: () => void;
}) {
  const save = useSaveTask();
  const queryClient = useQueryClient();
  const valuesOf = (task: Task | undefined): TaskFields => ({
    name: task?.name ?? "",
    description: task?.description ?? "",
    priority: task?.priority ?? "medium",
    dueDate: task?.dueDate ? dayInZone(task.dueDate, timeZone) : "",
  });
  const form = useForm<TaskFields, unknown, z.output<typeof taskFormSchema>>({
    resolver: zodResolver(taskFormSchema),
    defaultValues: valuesOf(task),
  });
  const conflict = useEditConflict({
    resource: task,
    form,
    valuesOf,
    load: async () => {
      const client = await queryClient.fetchQuery({ ...clientDetailQueryOptions(clientId), staleTime: 0 });
      const latest = client.tasks.find((other) => other.id === task?.id);
      if (!latest) throw new Error("This task has been deleted");
      return latest;
    },
  });

  const submit = (values: z.output<typeof taskFormSchema>, { idempotencyKey }: Submission) => {
    const { dueDate: day, ...fields } = values;
    const dueDate = day ? endOfDayInZone(day, timeZone) : null;
    if (dueDate === undefined) {
      form.setError("dueDate", { message: "Enter a date, or leave it empty" });
      return;
    }
    // An edit sends only what the person changed; an untouched day keeps the task's own due
    // instant (a recurring one ends its period exactly).
    const { dueDate: dayChanged, ...changed } = conflict.changes(values);
    const change: TaskChange = task
      ? {
          taskId: task.id,
          input: { ...changed, ...(dayChanged === undefined ? {} : { dueDate }) },
          version: conflict.version,
        }
      : { taskId: undefined, input: { ...fields, clientId, status: "pending", dueDate }, idempotencyKey };
    if (Object.keys(change.input).length === 0) return onDone();
    return save.mutateAsync(change).then(
      () => {
        toast.success(task ? "Task updated successfully!" : "Task created successfully!");
        onDone();
      },
      (error: unknown) => {
        if (conflict.caught(error)) return;
        toast.error(task ? "Failed to update task" : "Failed to create task", {
          description: errorMessage(error, "Please try again."),
        });
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={submit}>
      {(busy) => (
        <fieldset disabled={busy} className="grid gap-4">
          <EditConflictNotice conflict={conflict} entity="task" />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Task Name *</FormLabel>
                <FormControl>
                  <Input autoComplete="off" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="description"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Description</FormLabel>
                <FormControl>
                  <Textarea rows={3} {...field} value={field.value ?? ""} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              control={form.control}
              name="priority"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Priority</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger>
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {taskPriorities.map((priority) => (
                        <SelectItem key={priority} value={priority}>
                          {priorityLabels[priority]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="dueDate"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Due Date</FormLabel>
                  <FormControl>
                    <Input type="date" {...field} />
                  </FormControl>
                  <FormDescription>Optional. Due by the end of that day.</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
          </div>
          <DialogFooter className="pt-2">
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit">{busy ? "Saving..." : task ? "Save Changes" : "Add Task"}</Button>
          </DialogFooter>
        </fieldset>
      )}
    </GuardedForm>
  );
}
