/*
 * The SQL the floor (bench/floor.ts) sends, keyed by the name of the prepared statement Tendwell
 * sends for the same purpose. tests/prepared-statements.test.ts checks that each text is the very
 * one Tendwell prepares, so the benchmark compares like with like.
 */
export const floorStatements = {
  health_check: "select 1",
  session_by_token: `select s.id as session_id, s.user_id, s.firm_id, s.last_seen_at, s.expires_at, u.role, u.username, u.disabled_at,
          s.stage, s.second_factor_due_at, s.verified_at
     from sessions s join users u on u.id = s.user_id and u.firm_id = s.firm_id
    where s.token_hash = $1 and s.firm_id = $2`,
  session_touch: `update "sessions" set "last_seen_at" = $1 where "sessions"."id" = $2`,
  users_of_firm: `select "id", "username", "full_name", "email", "role", "disabled_at", "created_at", "version" from "users" where "users"."firm_id" = $1 order by "users"."full_name" asc, "users"."id" asc`,
  current_user_by_id: `select "users"."id", "users"."username", "users"."full_name", "users"."email", "users"."role", "firms"."id", "firms"."name", "firms"."plan", "firms"."trial_ends_at", "firms"."subscription_status" from "users" inner join "firms" on "firms"."id" = "users"."firm_id" where ("users"."id" = $1 and "users"."firm_id" = $2)`,
  client_by_id: `select "id", "name", "industry", "address", "phone", "email", "status", "created_at", "archived_at", "fiscal_year_end", "entity_type", "jurisdiction", "state", "version" from "clients" where ("clients"."firm_id" = $1 and "clients"."id" = $2 and ($3::uuid is null or exists (select 1 from user_clients uc where uc.firm_id = "clients"."firm_id" and uc.client_id = "clients"."id" and uc.user_id = $4::uuid)))`,
  clients_page: `select "id", "name", "industry", "address", "phone", "email", "status", "created_at", "archived_at" from "clients" where ("clients"."firm_id" = $1 and ("clients"."archived_at" is not null) = $2::boolean and ($3::text is null or "clients"."status" = $4::text) and ($5::text is null or ("clients"."name", "clients"."id") > ($6::text, $7::uuid))) order by "clients"."name" asc, "clients"."id" asc limit $8`,
  contacts_of_client: `select "id", "client_id", "name", "title", "phone", "email", "is_primary", "created_at", "version" from "contacts" where ("contacts"."firm_id" = $1 and "contacts"."client_id" = $2) order by "contacts"."is_primary" desc, "contacts"."name" asc, "contacts"."id" asc`,
  dashboard_counts: `select
     (f.clients_active + f.clients_inactive + f.clients_prospect)::int as clients_total,
     f.clients_active::int as clients_active,
     f.clients_inactive::int as clients_inactive,
     f.clients_prospect::int as clients_prospect,
     late.clients::int as clients_with_overdue,
     f.tasks_total::int as tasks_total,
     (f.tasks_total - f.tasks_completed - late.tasks)::int as tasks_pending,
     late.tasks::int as tasks_overdue,
     f.tasks_completed::int as tasks_completed
   from (select coalesce(sum(p.tasks), 0) as tasks, coalesce(sum(p.clients), 0) as clients
         from pending_due_counts p where p.firm_id = $1 and p.due_date < $2::timestamptz) as late
   left join firm_work_counts f on f.firm_id = $1`,
  task_counts_of_clients: `select k.client_id, k.total, k.completed,
     case when k.earliest_pending_due < $1::timestamptz then
       (select count(*) from tasks t
        where t.firm_id = k.firm_id and t.client_id = k.client_id and (t.status = 'pending' and t.due_date < $1::timestamptz))::int
     else 0 end as overdue
   from client_task_counts k
   where k.firm_id = $2 and k.client_id = any($3::uuid[])`,
  tasks_of_client: `select "tasks"."id", "tasks"."client_id", "tasks"."template_id", "tasks"."name", "tasks"."description", "tasks"."priority", "tasks"."status", "tasks"."due_date", "tasks"."created_at", "tasks"."completed_at", "tasks"."completed_by", "tasks"."printed_name", "tasks"."signature_sha256", "tasks"."version", completer.full_name, completer.username from "tasks" left join "users" as completer on completer.firm_id = "tasks"."firm_id" and completer.id = "tasks"."completed_by" where ("tasks"."firm_id" = $1 and "tasks"."client_id" = $2) order by "tasks"."completed_at" desc nulls last, "tasks"."due_date" desc nulls last, "tasks"."created_at" desc, "tasks"."id" desc`,
  team_of_client: `select "users"."id", "users"."username", "users"."full_name", "users"."role" from "user_clients" inner join "users" on ("users"."firm_id" = "user_clients"."firm_id" and "users"."id" = "user_clients"."user_id") where ("user_clients"."firm_id" = $1 and "user_clients"."client_id" = $2) order by "users"."full_name" asc, "users"."id" asc`,
  overdue_tasks: `select "tasks"."id", "tasks"."client_id", "tasks"."template_id", "tasks"."name", "tasks"."description", "tasks"."priority", "tasks"."due_date", "tasks"."created_at", "tasks"."version", "clients"."name" from "tasks" inner join "clients" on ("clients"."firm_id" = "tasks"."firm_id" and "clients"."id" = "tasks"."client_id") where ("tasks"."firm_id" = $1 and ("tasks"."status" = 'pending' and "tasks"."due_date" < $2::timestamptz) and "clients"."archived_at" is null and ($3::uuid is null or exists (select 1 from user_clients uc where uc.firm_id = "tasks"."firm_id" and uc.client_id = "tasks"."client_id" and uc.user_id = $4::uuid))) order by "tasks"."due_date" asc, "tasks"."created_at" asc, "tasks"."id" asc limit $5`,
  tasks_page: `select "tasks"."id", "tasks"."client_id", "tasks"."template_id", "tasks"."name", "tasks"."description", "tasks"."priority", "tasks"."status", "tasks"."due_date", "tasks"."created_at", "tasks"."completed_at", "tasks"."completed_by", "tasks"."printed_name", "tasks"."signature_sha256", "tasks"."version", "clients"."name", "completer"."full_name", "completer"."username", json_build_array(to_char("tasks"."completed_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), to_char("tasks"."due_date" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), to_char("tasks"."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), "tasks"."id")::text from "tasks" inner join "clients" on ("clients"."firm_id" = "tasks"."firm_id" and "clients"."id" = "tasks"."client_id") left join "users" "completer" on ("completer"."firm_id" = "tasks"."firm_id" and "completer"."id" = "tasks"."completed_by") where ("tasks"."firm_id" = $1 and "clients"."archived_at" is null and ((case when "tasks"."completed_at" is null then '-infinity'::timestamptz else "tasks"."completed_at" end), (case when "tasks"."due_date" is null then '-infinity'::timestamptz else "tasks"."due_date" end)) >= ($2::timestamptz, $3::timestamptz) and ((case when "tasks"."completed_at" is null then '-infinity'::timestamptz else "tasks"."completed_at" end), (case when "tasks"."due_date" is null then '-infinity'::timestamptz else "tasks"."due_date" end), "tasks"."created_at", "tasks"."id") < (
            greatest($4::timestamptz, '-infinity'::timestamptz),
            greatest($5::timestamptz, '-infinity'::timestamptz),
            $6::timestamptz, $7::uuid) and ($8::text is null
            or ($9::text = 'completed' and "tasks"."status" = 'completed')
            or ($10::text = 'overdue' and ("tasks"."status" = 'pending' and "tasks"."due_date" < $11::timestamptz))
            or ($12::text = 'pending' and ("tasks"."status" = 'pending' and ("tasks"."due_date" is null or "tasks"."due_date" >= $13::timestamptz))))) order by (case when "tasks"."completed_at" is null then '-infinity'::timestamptz else "tasks"."completed_at" end) desc, (case when "tasks"."due_date" is null then '-infinity'::timestamptz else "tasks"."due_date" end) desc, "tasks"."created_at" desc, "tasks"."id" desc limit $14`,
  templates_of_firm: `select "id", "name", "description", "priority", "is_recurring", "frequency", "created_by", "created_at", "library_key", "due_date_rule", "version" from "task_templates" where ("task_templates"."firm_id" = $1 and "task_templates"."deleted_at" is null) order by "task_templates"."created_at" asc, "task_templates"."id" asc`,
  library_marks_of_firm: `select "library_key", "name" from "task_templates" where ("task_templates"."firm_id" = $1 and "task_templates"."deleted_at" is null)`,
  firm_by_id: `select "id", "name", "plan", "trial_ends_at", "subscription_status", "time_zone", "internal_target_days", "closed_days", "version" from "firms" where "firms"."id" = $1`,
} as const;
