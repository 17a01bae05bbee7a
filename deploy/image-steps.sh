#!/usr/bin/env bash
# The steps the image runs (deploy/Dockerfile), in order, each a command of this script, so that
# the image and the test that stands in for it (npm run fault:several-instances, which cannot pull
# a base image) run the very same lines:
#
#   install              build stage:   every dependency, the development tools included
#   build                build stage:   dist/ (the server bundle, the web app, the public pages)
#   install-production   runtime stage: the production dependencies only
#   migrate              before the instances start: the migrations, as the database's owner
#   start                each instance: the server, in the foreground (it handles SIGTERM)
#
# Run from the folder that holds package.json (the image's /app). install and build want the
# whole repository; install-production, migrate and start only what the runtime stage copies.
set -euo pipefail

step="${1:-}"
case "$step" in
  install)
    npm ci --no-audit --no-fund
    ;;
  build)
    npm run build
    ;;
  install-production)
    npm ci --omit=dev --no-audit --no-fund
    ;;
  migrate)
    # As the owner role (DATABASE_OWNER_URL), granting the app's role (DATABASE_URL) its rights;
    # without DATABASE_OWNER_URL, DATABASE_URL's role does both.
    exec node --enable-source-maps dist/server/migrate.cli.js
    ;;
  start)
    # The flags of APP_NODE_FLAGS (src/server/platform/runtime.ts), as package.json's start has them.
    exec node --max-semi-space-size=16 --enable-source-maps dist/server/main.js
    ;;
  *)
    echo "usage: $0 install | build | install-production | migrate | start" >&2
    exit 2
    ;;
esac
