/*
 * The SQL the floor (bench/floor.ts) sends, keyed by the name of the prepared statement Tendwell
 * sends for the same purpose. tests/prepared-statements.test.ts checks that each text is the very
 * one Tendwell prepares, so the benchmark compares like with like.
 */
export const floorStatements = {
  health_check: "select 1",
  session_by_token_hash: `select "sessions"."id", "sessions"."user_id", "sessions"."firm_id", "sessions"."last_seen_at", "sessions"."expires_at", "users"."role", "users"."username", "users"."disabled_at" from "sessions" inner join "users" on ("users"."id" = "sessions"."user_id" and "users"."firm_id" = "sessions"."firm_id") where "sessions"."token_hash" = $1`,
  session_touch: `update "sessions" set "last_seen_at" = $1 where "sessions"."id" = $2`,
  users_of_firm: `select "id", "username", "full_name", "email", "role", "disabled_at", "created_at" from "users" where "users"."firm_id" = $1 order by "users"."full_name" asc, "users"."id" asc`,
  current_user_by_id: `select "users"."id", "users"."username", "users"."full_name", "users"."email", "users"."role", "firms"."id", "firms"."name", "firms"."plan", "firms"."trial_ends_at", "firms"."subscription_status" from "users" inner join "firms" on "firms"."id" = "users"."firm_id" where ("users"."id" = $1 and "users"."firm_id" = $2)`,
} as const;
