#!/usr/bin/env bash
# Render the sample profile service from specs/user-profile.yaml into .demo/ and serve it
# on port 8080 (PORT overrides it), on its embedded defaults: a SQLite event store under
# .demo/ and an embedded nats-server with JetStream that the outbox relay publishes to.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
rm -rf .demo
"$BIN/generate" service user-profile --path=./.demo
export USER_PROFILE_HOME="$ROOT/.demo/user-profile"
export PYTHONPATH="$ROOT/.demo/user-profile/src"
PORT="${PORT:-8080}"
export PORT
export BROKER_EMBEDDED=true
BASE="http://127.0.0.1:$PORT"
cat <<MSG

Serving user-profile on $BASE  (Ctrl-C stops it)
  OpenAPI     $BASE/docs   $BASE/openapi.json
  Health      $BASE/api/v1/user-profiles/health   $BASE/actuator/health
  Metrics     $BASE/metrics
  Try         curl -s -X POST $BASE/api/v1/user-profiles -H 'Content-Type: application/json' -d '{"name":"Ada","email":"ada@example.org"}'

MSG
exec "$BIN/python" -m user_profile
