#!/bin/sh
# serve (default): run the app; migrate: apply database migrations and exit; anything else: run it.
set -e
case "${1:-serve}" in
  serve) shift 2>/dev/null || true; exec node /app/main.js "$@" ;;
  migrate) shift; exec node /app/main.js migrate "$@" ;;
  *) exec "$@" ;;
esac
