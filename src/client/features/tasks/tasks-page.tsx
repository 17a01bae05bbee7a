import { ClipboardList, LayoutTemplate } from "lucide-react";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { TemplatesTab } from "../templates/templates-tab";
import { TaskListTab } from "./task-list-tab";

type Tab = "audit" | "templates";

/**
 * /tasks (S-TAUD-01): the Task Audit and Task Templates tabs. The tab is in the URL
 * (`/tasks?tab=templates`), so the dashboard's Templates action and the back button land on it,
 * next to the audit's status filter (`?status=`), which a visit to the templates keeps.
 */
export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get("tab") === "templates" ? "templates" : "audit";
  const showTab = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === "templates") next.set("tab", "templates");
        else next.delete("tab");
        return next;
      },
      { replace: true },
    );

  return (
    <div className="flex flex-col gap-6">
      <PageHeader description="Review completed and outstanding work, and manage the templates your team works from" />
      <Tabs value={tab} onValueChange={showTab}>
        <TabsList aria-label="Tasks views">
          <TabsTrigger value="audit">
            <ClipboardList aria-hidden="true" />
            Task Audit
          </TabsTrigger>
          <TabsTrigger value="templates">
            <LayoutTemplate aria-hidden="true" />
            Task Templates
          </TabsTrigger>
        </TabsList>
        <TabsContent value="audit">
          <TaskListTab />
        </TabsContent>
        <TabsContent value="templates">
          <TemplatesTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
