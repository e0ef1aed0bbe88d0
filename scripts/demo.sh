#!/usr/bin/env bash
# The demo: render the sample profile service from specs/user-profile.yaml into .demo/, then
# serve it with the IAM service (rendered/apps/iam) on embedded defaults: SQLite event stores
# and a key ring under .demo/, one embedded nats-server with JetStream that both services
# publish to and consume from. A platform admin (random password), a tenant "demo" and a user
# "ada" are created, and a ready token with curl examples is printed.
# The feature-flag service (rendered/apps/feature-flags) serves a demo flag, profile-deletion,
# which gates the sample's DELETE (the sample asks it over OpenFeature's OFREP).
# The configuration (:8085) and licensing (:8086) services run beside them.
# A small browser application (scripts/demo_rp.py, :8087) signs in through the IAM's sign-in
# page of the tenant's realm (OpenID Connect, code flow with PKCE) and calls the sample.
# PORT, IAM_PORT, FLAGS_PORT, CONFIG_PORT, LICENSING_PORT, RP_PORT and DEMO_DIR override the
# ports (8080, 8081, 8084, 8085, 8086, 8087) and the directory (.demo).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
DEMO="${DEMO_DIR:-$ROOT/.demo}"
PORT="${PORT:-8080}"
IAM_PORT="${IAM_PORT:-8081}"
FLAGS_PORT="${FLAGS_PORT:-8084}"
CONFIG_PORT="${CONFIG_PORT:-8085}"
LICENSING_PORT="${LICENSING_PORT:-8086}"
RP_PORT="${RP_PORT:-8087}"
free_port() { "$BIN/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
NATS_PORT="$(free_port)"

if [ -d "$DEMO" ] && [ ! -f "$DEMO/.eaf-demo" ] && [ -n "$(ls -A "$DEMO")" ]; then
  echo "demo: $DEMO is not a demo directory (no .eaf-demo); not clearing it" >&2
  exit 2
fi
rm -rf "$DEMO"
mkdir -p "$DEMO"
touch "$DEMO/.eaf-demo"
"$BIN/generate" service user-profile --path="$DEMO"

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

mkdir -p "$DEMO/nats"
"$BIN/nats-server" -js -a 127.0.0.1 -p "$NATS_PORT" -sd "$DEMO/nats" >"$DEMO/nats.log" 2>&1 &
pids+=($!)
export BROKER_URL="nats://127.0.0.1:$NATS_PORT"

ADMIN_PASSWORD="$("$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(12))')"
IAM_URL="http://127.0.0.1:$IAM_PORT"
PORT="$IAM_PORT" DATABASE_URL="sqlite:///$DEMO/iam.db" SECURITY_KEYS_FILE="$DEMO/iam-keys.json" \
  SECURITY_ISSUER="$IAM_URL" IAM_PLATFORM_ADMIN_USERNAME=admin \
  IAM_PLATFORM_ADMIN_PASSWORD="$ADMIN_PASSWORD" \
  "$BIN/python" -m iam >"$DEMO/iam.log" 2>&1 &
pids+=($!)

FLAGS_URL="http://127.0.0.1:$FLAGS_PORT"
PORT="$FLAGS_PORT" DATABASE_URL="sqlite:///$DEMO/feature-flags.db" SECURITY_IAM_URL="$IAM_URL" \
  "$BIN/python" -m feature_flags >"$DEMO/feature-flags.log" 2>&1 &
pids+=($!)

# The configuration and licensing services, their key rings under the demo directory.
CONFIG_URL="http://127.0.0.1:$CONFIG_PORT"
PORT="$CONFIG_PORT" DATABASE_URL="sqlite:///$DEMO/configuration.db" SECURITY_IAM_URL="$IAM_URL" \
  CONFIGURATION_KEYS_FILE="$DEMO/configuration-keys.json" \
  "$BIN/python" -m configuration >"$DEMO/configuration.log" 2>&1 &
pids+=($!)
LICENSING_URL="http://127.0.0.1:$LICENSING_PORT"
PORT="$LICENSING_PORT" DATABASE_URL="sqlite:///$DEMO/licensing.db" SECURITY_IAM_URL="$IAM_URL" \
  LICENSING_KEYS_FILE="$DEMO/license-keys.json" \
  "$BIN/python" -m licensing >"$DEMO/licensing.log" 2>&1 &
pids+=($!)

USER_PROFILE_HOME="$DEMO/user-profile" PYTHONPATH="$DEMO/user-profile/src" PORT="$PORT" \
  SECURITY_IAM_URL="$IAM_URL" FLAGS_URL="$FLAGS_URL" \
  "$BIN/python" -m user_profile >"$DEMO/user-profile.log" 2>&1 &
pids+=($!)

# The browser application: a public client "demo-portal" of the realm "demo" (registered
# by demo_setup.py with its redirect URI).
RP_URL="http://127.0.0.1:$RP_PORT"
"$BIN/python" scripts/demo_rp.py --realm "$IAM_URL/realms/demo" --client-id demo-portal \
  --app "http://127.0.0.1:$PORT" --port "$RP_PORT" >"$DEMO/demo-rp.log" 2>&1 &
pids+=($!)

"$BIN/python" scripts/demo_setup.py --iam "$IAM_URL" --app "http://127.0.0.1:$PORT" --flags "$FLAGS_URL" \
  --configuration "$CONFIG_URL" --licensing "$LICENSING_URL" --rp "$RP_URL" \
  --admin-password="$ADMIN_PASSWORD" --logs "$DEMO"
wait "${pids[-2]}"
