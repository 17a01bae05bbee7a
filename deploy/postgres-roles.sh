#!/usr/bin/env bash
# Run once by the postgres image on an empty data volume (/docker-entrypoint-initdb.d): the two
# roles Tendwell connects as. tendwell_owner owns the database and runs the migrations;
# tendwell_app, which the instances connect as, owns nothing and gets its rights from the owner
# at each migrate step. The passwords come from the compose file's environment.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v owner_password="$OWNER_DB_PASSWORD" -v app_password="$APP_DB_PASSWORD" <<'SQL'
CREATE ROLE tendwell_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE tendwell_app LOGIN PASSWORD :'app_password';
CREATE DATABASE tendwell OWNER tendwell_owner;
\c tendwell
REVOKE TEMPORARY ON DATABASE tendwell FROM PUBLIC;
SQL
