# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Serve licensing: ``python -m licensing`` (PORT overrides the port)."""

import logging

import uvicorn

from licensing.infrastructure.config import load_settings
from licensing.main import create_app


def main() -> None:
    """Serve the application on the configured host and port."""
    settings = load_settings()
    app = create_app(settings)
    base = f"http://{settings.host}:{settings.port}"
    logging.getLogger("licensing").info(
        "serving %s on %s (OpenAPI %s/docs, health %s/actuator/health)",
        settings.name,
        base,
        base,
        base,
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_config=None,
        timeout_graceful_shutdown=settings.graceful_shutdown_seconds,
    )


if __name__ == "__main__":
    main()
