import { type ReactNode, useId } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ClientReport, UserReport } from "../../../shared/reports";
import { Card } from "../../components/ui/card";
import {
  formatBucket,
  formatCount,
  formatRate,
  prioritiesDown,
  priorityLabels,
  priorityStatusCounts,
} from "./report-format";

/*
 * The reports' charts. This module is the only one that imports Recharts and the page loads it
 * with React.lazy, so neither /dashboard nor the first chunk of /reports carries the library
 * (docs/design/reports-screen.md). Each chart is a figure with a heading, a one-line summary people can read, and
 * the same numbers as an sr-only table; the drawing itself is hidden from assistive technology.
 * Colours are tokens: green completed / on time, amber pending, red overdue / late (as everywhere),
 * and slate for work created (a count, not a state).
 */

const colors = {
  created: "var(--color-muted-foreground)",
  completed: "var(--color-success)",
  pending: "var(--color-warning)",
  overdue: "var(--color-destructive)",
  late: "var(--color-destructive)",
  grid: "var(--color-border)",
  axis: "var(--color-muted-foreground)",
} as const;

const axisProps = {
  tick: { fontSize: 12, fill: colors.axis },
  tickLine: false,
  axisLine: { stroke: colors.grid },
} as const;

const tooltipProps = {
  cursor: { fill: "var(--color-muted)" },
  contentStyle: {
    borderRadius: 8,
    border: "1px solid var(--color-border)",
    boxShadow: "var(--shadow-md)",
    fontSize: 12,
  },
  labelStyle: { fontWeight: 600, color: "var(--color-foreground)" },
} as const;

// The legend keeps the bars' order (Recharts sorts by name unless told not to).
const legendProps = { iconType: "circle", iconSize: 8, wrapperStyle: { fontSize: 12 }, itemSorter: null } as const;

type Column<Row> = { header: string; value: (row: Row) => string };

/** A chart with its heading, its summary and its numbers as a table for screen readers. */
function ChartFigure<Row>({
  title,
  summary,
  rows,
  columns,
  rowKey,
  chart,
  testId,
}: {
  title: string;
  summary: string;
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  chart: ReactNode;
  testId: string;
}) {
  const headingId = useId();
  return (
    <Card className="flex min-w-0 flex-col gap-3 p-4 sm:p-5" data-testid={testId}>
      <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
        <div className="flex flex-col gap-1">
          <h3 id={headingId} className="text-sm font-semibold">
            {title}
          </h3>
          <p className="text-xs text-muted-foreground" data-testid="chart-summary">
            {summary}
          </p>
        </div>
        <div className="h-56 w-full min-w-0" aria-hidden="true">
          {chart}
        </div>
        <table className="sr-only">
          <caption>{title}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header}>{column.value(row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Card>
  );
}

const sum = <T,>(rows: T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);
const per = (bucket: "day" | "week") => (bucket === "day" ? "by day" : "by week");

/** Client audit: work created vs completed per bucket, and the range's tasks by priority and status. */
export function ClientReportCharts({ report }: { report: ClientReport }) {
  const { bucket, days } = report.range;
  const series = report.series.map((point) => ({
    ...point,
    label: formatBucket(point.start, bucket),
    longLabel: formatBucket(point.start, bucket, true),
  }));
  const created = sum(series, (point) => point.created);
  const completed = sum(series, (point) => point.completed);
  const byPriority = priorityStatusCounts(report.history);

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-5">
      <div className="min-w-0 lg:col-span-3">
        <ChartFigure
          testId="chart-completion"
          title="Completion over time"
          summary={`${formatCount(created)} created and ${formatCount(completed)} completed in the last ${days} days, ${per(bucket)}.`}
          rows={series}
          rowKey={(point) => point.start}
          columns={[
            { header: bucket === "day" ? "Day" : "Week of", value: (point) => point.label },
            { header: "Created", value: (point) => formatCount(point.created) },
            { header: "Completed", value: (point) => formatCount(point.completed) },
          ]}
          chart={
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={series}
                accessibilityLayer={false}
                barGap={1}
                margin={{ top: 4, right: 4, bottom: 0, left: -16 }}
              >
                <CartesianGrid vertical={false} stroke={colors.grid} />
                <XAxis dataKey="label" {...axisProps} minTickGap={16} />
                <YAxis allowDecimals={false} {...axisProps} width={40} />
                <Tooltip {...tooltipProps} labelFormatter={(_, payload) => payload?.[0]?.payload?.longLabel ?? ""} />
                <Legend {...legendProps} />
                <Bar
                  isAnimationActive={false}
                  dataKey="created"
                  name="Created"
                  fill={colors.created}
                  radius={[3, 3, 0, 0]}
                  maxBarSize={24}
                />
                <Bar
                  isAnimationActive={false}
                  dataKey="completed"
                  name="Completed"
                  fill={colors.completed}
                  radius={[3, 3, 0, 0]}
                  maxBarSize={24}
                />
              </BarChart>
            </ResponsiveContainer>
          }
        />
      </div>
      <div className="min-w-0 lg:col-span-2">
        <ChartFigure
          testId="chart-priority"
          title="Tasks by priority"
          summary={byPriority
            .map((row) => `${row.label}: ${formatCount(row.completed)} of ${formatCount(row.total)} completed`)
            .join(" · ")}
          rows={byPriority}
          rowKey={(row) => row.priority}
          columns={[
            { header: "Priority", value: (row) => row.label },
            { header: "Completed", value: (row) => formatCount(row.completed) },
            { header: "Pending", value: (row) => formatCount(row.pending) },
            { header: "Overdue", value: (row) => formatCount(row.overdue) },
          ]}
          chart={
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={byPriority}
                layout="vertical"
                accessibilityLayer={false}
                margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
              >
                <CartesianGrid horizontal={false} stroke={colors.grid} />
                <XAxis type="number" allowDecimals={false} {...axisProps} />
                <YAxis type="category" dataKey="label" {...axisProps} width={64} />
                <Tooltip {...tooltipProps} />
                <Legend {...legendProps} />
                <Bar
                  isAnimationActive={false}
                  dataKey="completed"
                  name="Completed"
                  stackId="status"
                  fill={colors.completed}
                  maxBarSize={28}
                />
                <Bar
                  isAnimationActive={false}
                  dataKey="pending"
                  name="Pending"
                  stackId="status"
                  fill={colors.pending}
                  maxBarSize={28}
                />
                <Bar
                  isAnimationActive={false}
                  dataKey="overdue"
                  name="Overdue"
                  stackId="status"
                  fill={colors.overdue}
                  maxBarSize={28}
                />
              </BarChart>
            </ResponsiveContainer>
          }
        />
      </div>
    </div>
  );
}

/** User audit: completions per bucket, on time vs late per bucket, and completions by priority. */
export function UserReportCharts({ report }: { report: UserReport }) {
  const { bucket, days } = report.range;
  const series = report.series.map((point) => ({
    ...point,
    label: formatBucket(point.start, bucket),
    longLabel: formatBucket(point.start, bucket, true),
  }));
  const onTime = sum(series, (point) => point.onTime);
  const late = sum(series, (point) => point.late);
  const byPriority = prioritiesDown.map((priority) => {
    const row = report.byPriority.find((entry) => entry.priority === priority);
    return {
      priority,
      label: priorityLabels[priority],
      completed: row?.completed ?? 0,
      onTimeRate: row?.onTimeRate ?? null,
    };
  });
  const labelFormatter = (_: unknown, payload: readonly { payload?: { longLabel?: string } }[] | undefined) =>
    payload?.[0]?.payload?.longLabel ?? "";

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <ChartFigure
        testId="chart-completion"
        title="Completions over time"
        summary={`${formatCount(report.tasksCompleted)} completed in the last ${days} days, ${per(bucket)}.`}
        rows={series}
        rowKey={(point) => point.start}
        columns={[
          { header: bucket === "day" ? "Day" : "Week of", value: (point) => point.label },
          { header: "Completed", value: (point) => formatCount(point.completed) },
        ]}
        chart={
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={series} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
              <CartesianGrid vertical={false} stroke={colors.grid} />
              <XAxis dataKey="label" {...axisProps} minTickGap={16} />
              <YAxis allowDecimals={false} {...axisProps} width={40} />
              <Tooltip {...tooltipProps} labelFormatter={labelFormatter} />
              <Bar
                isAnimationActive={false}
                dataKey="completed"
                name="Completed"
                fill={colors.completed}
                radius={[3, 3, 0, 0]}
                maxBarSize={24}
              />
            </BarChart>
          </ResponsiveContainer>
        }
      />
      <ChartFigure
        testId="chart-on-time"
        title="On-time rate"
        summary={
          onTime + late === 0
            ? "None of the completed tasks had a due date."
            : `${formatCount(onTime)} on time and ${formatCount(late)} late: ${formatRate(report.onTimeRate)} on time.`
        }
        rows={series}
        rowKey={(point) => point.start}
        columns={[
          { header: bucket === "day" ? "Day" : "Week of", value: (point) => point.label },
          { header: "On time", value: (point) => formatCount(point.onTime) },
          { header: "Late", value: (point) => formatCount(point.late) },
        ]}
        chart={
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={series} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
              <CartesianGrid vertical={false} stroke={colors.grid} />
              <XAxis dataKey="label" {...axisProps} minTickGap={16} />
              <YAxis allowDecimals={false} {...axisProps} width={40} />
              <Tooltip {...tooltipProps} labelFormatter={labelFormatter} />
              <Legend {...legendProps} />
              <Bar
                isAnimationActive={false}
                dataKey="onTime"
                name="On time"
                stackId="due"
                fill={colors.completed}
                maxBarSize={24}
              />
              <Bar
                isAnimationActive={false}
                dataKey="late"
                name="Late"
                stackId="due"
                fill={colors.late}
                radius={[3, 3, 0, 0]}
                maxBarSize={24}
              />
            </BarChart>
          </ResponsiveContainer>
        }
      />
      <div className="min-w-0 lg:col-span-2">
        <ChartFigure
          testId="chart-priority"
          title="Completed by priority"
          summary={byPriority
            .map((row) => `${row.label}: ${formatCount(row.completed)} (${formatRate(row.onTimeRate)} on time)`)
            .join(" · ")}
          rows={byPriority}
          rowKey={(row) => row.priority}
          columns={[
            { header: "Priority", value: (row) => row.label },
            { header: "Completed", value: (row) => formatCount(row.completed) },
            { header: "On-time rate", value: (row) => formatRate(row.onTimeRate) },
          ]}
          chart={
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={byPriority}
                layout="vertical"
                accessibilityLayer={false}
                margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
              >
                <CartesianGrid horizontal={false} stroke={colors.grid} />
                <XAxis type="number" allowDecimals={false} {...axisProps} />
                <YAxis type="category" dataKey="label" {...axisProps} width={64} />
                <Tooltip {...tooltipProps} />
                <Bar
                  isAnimationActive={false}
                  dataKey="completed"
                  name="Completed"
                  fill={colors.completed}
                  radius={[0, 3, 3, 0]}
                  maxBarSize={28}
                />
              </BarChart>
            </ResponsiveContainer>
          }
        />
      </div>
    </div>
  );
}
