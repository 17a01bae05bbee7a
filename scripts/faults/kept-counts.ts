/*
 * The counts the database keeps by triggers (client_task_counts, firm_work_counts and
 * pending_due_counts, decisions 0011 and 0036) against a fresh count of the tasks and clients:
 * one line of text per client, firm or due date that differs, none when all agree.
 */
export const keptCountMismatchesSql = `
  with live as (select firm_id, id from clients where archived_at is null),
  per_client as (
    select firm_id, client_id, count(*) as total, count(*) filter (where status = 'completed') as completed,
           min(due_date) filter (where status = 'pending') as earliest
    from tasks group by firm_id, client_id
  ),
  per_firm as (
    select f.id as firm_id,
           (select count(*) from clients c where c.firm_id = f.id and c.archived_at is null and c.status = 'active') as active,
           (select count(*) from clients c where c.firm_id = f.id and c.archived_at is null and c.status = 'inactive') as inactive,
           (select count(*) from clients c where c.firm_id = f.id and c.archived_at is null and c.status = 'prospect') as prospect,
           (select count(*) from tasks t join live l on l.firm_id = t.firm_id and l.id = t.client_id where t.firm_id = f.id) as total,
           (select count(*) from tasks t join live l on l.firm_id = t.firm_id and l.id = t.client_id
             where t.firm_id = f.id and t.status = 'completed') as completed
    from firms f
  ),
  per_due as (
    select firm_id, due_date, sum(tasks) as tasks, sum(clients) as clients from (
      select t.firm_id, t.due_date, count(*) as tasks, 0 as clients
      from tasks t join live l on l.firm_id = t.firm_id and l.id = t.client_id
      where t.status = 'pending' and t.due_date is not null group by t.firm_id, t.due_date
      union all
      select p.firm_id, p.earliest, 0, count(*)
      from per_client p join live l on l.firm_id = p.firm_id and l.id = p.client_id
      where p.earliest is not null group by p.firm_id, p.earliest
    ) as open_work group by firm_id, due_date
  )
  select 'client ' || coalesce(p.client_id, k.client_id) || ': ' || coalesce(p.total, 0) || '/' || coalesce(p.completed, 0)
         || ' counted, ' || coalesce(k.total, 0) || '/' || coalesce(k.completed, 0) || ' kept' as mismatch
  from per_client p full join client_task_counts k on k.firm_id = p.firm_id and k.client_id = p.client_id
  where coalesce(p.total, 0) <> coalesce(k.total, 0) or coalesce(p.completed, 0) <> coalesce(k.completed, 0)
     or p.earliest is distinct from k.earliest_pending_due
  union all
  select 'firm ' || p.firm_id || ': its kept clients and tasks differ from a fresh count'
  from per_firm p left join firm_work_counts k on k.firm_id = p.firm_id
  where (p.active, p.inactive, p.prospect, p.total, p.completed)
        is distinct from (coalesce(k.clients_active, 0), coalesce(k.clients_inactive, 0), coalesce(k.clients_prospect, 0),
                          coalesce(k.tasks_total, 0), coalesce(k.tasks_completed, 0))
  union all
  select 'firm ' || coalesce(p.firm_id, k.firm_id) || ', due ' || coalesce(p.due_date, k.due_date) || ': '
         || coalesce(p.tasks, 0) || ' open tasks counted, ' || coalesce(k.tasks, 0) || ' kept'
  from per_due p full join pending_due_counts k on k.firm_id = p.firm_id and k.due_date = p.due_date
  where (coalesce(p.tasks, 0), coalesce(p.clients, 0)) <> (coalesce(k.tasks, 0), coalesce(k.clients, 0))`;
