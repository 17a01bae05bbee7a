import { Building2, UserRound } from "lucide-react";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { ClientReportTab } from "./client-report";
import { parseReportParams, type ReportParams, reportSearchParams } from "./report-format";
import { UserReportTab } from "./user-report";

/**
 * /reports (S-REP-01): the Client Audit and User Audit tabs. The tab, the chosen client and user and
 * the range live in the URL (`?tab=user&client=…&user=…&days=90`), so a report can be linked,
 * reloaded and reached with the back button (docs/design/reports-screen.md). Both choices are kept while the
 * other tab is open, and the range is shared by the two.
 */
export function ReportsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseReportParams(searchParams);
  const update = (change: Partial<ReportParams>, replace = false) =>
    setSearchParams(reportSearchParams({ ...state, ...change }), { replace });

  return (
    <div className="flex flex-col gap-6">
      <PageHeader description="Audit the work done for each client and by each member of your team" />
      <Tabs value={state.tab} onValueChange={(tab) => update({ tab: tab === "user" ? "user" : "client" }, true)}>
        <TabsList aria-label="Report type">
          <TabsTrigger value="client">
            <Building2 aria-hidden="true" />
            Client Audit
          </TabsTrigger>
          <TabsTrigger value="user">
            <UserRound aria-hidden="true" />
            User Audit
          </TabsTrigger>
        </TabsList>
        <TabsContent value="client">
          <ClientReportTab
            clientId={state.clientId}
            days={state.days}
            onClientChange={(clientId) => update({ clientId })}
            onDaysChange={(days) => update({ days })}
          />
        </TabsContent>
        <TabsContent value="user">
          <UserReportTab
            userId={state.userId}
            days={state.days}
            onUserChange={(userId) => update({ userId })}
            onDaysChange={(days) => update({ days })}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
