"""Fixtures shared by every eaf test package: one real PostgreSQL server per session."""

from collections.abc import Iterator

import pytest

from eaf.eventsourcing.testing.postgres import PostgresCluster, running_postgres


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    with running_postgres() as cluster:
        yield cluster
