# The two README commands (demo, test) and small helpers. Self-bootstrapping: only
# Python 3.11+ and the package registries are needed; uv is installed into .tools/.
PYTHON ?= python3
UV_VERSION ?= 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
RUN := $(UV) run --frozen

.PHONY: demo test sync system-deps lint check-generated bench catalog clean

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

.venv/.synced: $(UV) uv.lock pyproject.toml
	$(UV) sync --locked --all-packages --compile-bytecode --python $(PYTHON)
	touch $@

sync: .venv/.synced

# Debian packages (chromium, npm), the official AsyncAPI schema the tests validate against,
# the Unleash client specification whose every case flag-engine runs, and the OpenID-certified
# oidc-provider the IAM's brokering tests run as an external provider.
ASYNCAPI_SCHEMA := tests/asyncapi-schema/node_modules/.package-lock.json
UNLEASH_SPEC := tests/unleash-spec/node_modules/.package-lock.json
OIDC_PROVIDER := tests/oidc-provider/node_modules/.package-lock.json

system-deps:
	bash scripts/system-deps.sh

$(ASYNCAPI_SCHEMA): tests/asyncapi-schema/package-lock.json | system-deps
	cd tests/asyncapi-schema && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

$(UNLEASH_SPEC): tests/unleash-spec/package-lock.json | system-deps
	cd tests/unleash-spec && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

$(OIDC_PROVIDER): tests/oidc-provider/package-lock.json | system-deps
	cd tests/oidc-provider && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

demo: sync
	bash scripts/demo.sh

test: sync system-deps $(ASYNCAPI_SCHEMA) $(UNLEASH_SPEC) $(OIDC_PROVIDER)
	bash scripts/test.sh

lint: sync
	$(RUN) ruff check generator tests benchmarks contracts
	$(RUN) ruff format --check generator tests benchmarks contracts
	$(RUN) mypy
	$(RUN) lint-imports

catalog: sync
	$(RUN) generate catalog

bench: sync
	$(RUN) python benchmarks/generate.py

clean:
	rm -rf $(TOOLS) .venv
