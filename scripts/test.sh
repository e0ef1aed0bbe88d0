#!/usr/bin/env bash
# The whole suite: the generator (lint, types, its own layer contracts, tests), every spec,
# then each rendered project and the contracts package with its own pytest configuration.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
export PYTHONDONTWRITEBYTECODE=1

step() { printf '\n== %s\n' "$*"; }

step "generator: ruff, mypy, import contracts"
"$BIN/ruff" check generator tests benchmarks
"$BIN/ruff" format --check generator tests benchmarks
"$BIN/mypy"
"$BIN/lint-imports" --no-cache

step "specs"
"$BIN/generate" validate
"$BIN/generate" check --all

for project in contracts rendered/libs/* rendered/apps/*; do
  step "$project: ruff, mypy"
  (cd "$project" && "$BIN/ruff" check . && "$BIN/ruff" format --check . && "$BIN/mypy")
done

for project in contracts rendered/libs/* rendered/apps/*; do
  step "$project: tests"
  (cd "$project" && "$BIN/python" -m pytest -p no:cacheprovider)
done

step "generator tests"
"$BIN/python" -m pytest -p no:cacheprovider tests
