"""A spec-declared upcast: events stored at v1 load into the v2 aggregate, and the stored
rows stay as they were written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from helpers import Generate

CHECK = """
import asyncio, uuid
from eaf.context import SecurityContext, use
from eaf.eventsourcing import NewEvent, create_event_store
from shop_profiles.infrastructure.persistence import EventSourcedSampleShopProfilesRepository

async def main() -> None:
    store = await create_event_store("sqlite+aiosqlite:///{db}")
    profile_id = str(uuid.uuid4())
    v1 = {{"profile_id": profile_id, "name": "Ada", "mail": "ada@example.org",
          "occurred_at": "2026-01-02T03:04:05+00:00"}}
    with use(SecurityContext(tenant_id="t1")):
        await store.append("SampleShopProfiles", profile_id,
                           [NewEvent("SampleShopProfilesCreated", v1, schema_version=1)],
                           expected_version=0)
        profile = await EventSourcedSampleShopProfilesRepository(store).get(profile_id)
        assert profile is not None and profile.email == "ada@example.org", profile
        assert profile.version == 1
        stored = await store.read_stream("SampleShopProfiles", profile_id)
        assert stored[0].schema_version == 1 and stored[0].payload == v1, stored
    await store.close()
    print("upcast ok")

asyncio.run(main())
"""


def test_events_stored_as_v1_load_through_the_spec_upcast(
    workspace: Path, generate: Generate, tmp_path: Path
) -> None:
    assert generate("service", "shop-profiles", cwd=workspace).code == 0
    spec_path = workspace / "specs/shop-profiles.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["events"]["SampleShopProfilesCreated"]["version"] = 2
    spec["events"]["SampleShopProfilesCreated"]["upcasts"] = {1: {"rename": {"mail": "email"}}}
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))
    assert generate("service", "shop-profiles", "--path=./v2", cwd=workspace).code == 0
    project = workspace / "v2/shop-profiles"
    persistence = (project / "src/shop_profiles/infrastructure/persistence.py").read_text()
    assert 'payload["email"] = payload.pop("mail")' in persistence
    assert (
        'SampleShopProfilesCreated": 2'
        in (project / "src/shop_profiles/domain/events.py").read_text()
    )
    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(db=tmp_path / "events.db")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "upcast ok" in result.stdout
