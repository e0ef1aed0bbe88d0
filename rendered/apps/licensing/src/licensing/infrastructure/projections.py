# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Read models: projections of the stored events, kept up to date by projectors that follow
the event store (each batch and its checkpoint in one transaction, so a restart neither
skips nor repeats an event). Events are upcast to their current schema version first; a
read model whose shape changed is rebuilt from the first event."""

from eaf.eventsourcing import StoredEvent
from eaf.eventsourcing.serialization import encode_value
from eaf.projectors import (
    Projection,
    ProjectionStore,
    ReadModelWriter,
    RowQueries,
    key_value,
    read_model_table,
)

from licensing.domain.events import (
    LicenseCreated,
    LicenseReinstated,
    LicenseRenewed,
    LicenseRevokedEvent,
    LicenseSuspended,
    LicenseUpdated,
    MachineActivated,
    MachineClaimed,
    MachineDeactivated,
    MachineHeartbeat,
    MachineReleased,
    PolicyCreated,
    PolicyRemoved,
    PolicyUpdated,
    ProductCreated,
    ProductRemoved,
    ProductUpdated,
)
from licensing.domain.model import License, Machine, Policy, Product

# Private names: a read model's constant (its name in capitals) may be EVENTS or E.
from licensing.infrastructure.persistence import EVENTS as _EVENT_TYPES

PRODUCTS_TABLE = read_model_table(
    "products",
    {
        "id": "str",
        "code": "str",
        "name": "str",
        "url": "str",
        "metadata": "json",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
PRODUCTS = Projection("Products", PRODUCTS_TABLE, version="2e960ff0f65e")


@PRODUCTS.handles("ProductCreated", writer_only=True)
async def _product_created_products(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ProductCreated)
    key = {
        "id": key_value(event.product_id),
    }
    await writer.upsert(
        {
            **key,
            "code": encode_value(event.code),
            "name": encode_value(event.name),
            "url": encode_value(event.url),
            "metadata": encode_value(event.metadata),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@PRODUCTS.handles("ProductUpdated", writer_only=True)
async def _product_updated_products(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ProductUpdated)
    key = {
        "id": key_value(event.product_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "url": encode_value(event.url),
            "metadata": encode_value(event.metadata),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@PRODUCTS.handles("ProductRemoved", writer_only=True)
async def _product_removed_products(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ProductRemoved)
    key = {
        "id": key_value(event.product_id),
    }
    await writer.delete(key)


class ReadModelProductListing(RowQueries[Product]):
    """Reads the tenant's rows of Products (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, PRODUCTS, Product)


POLICIES_TABLE = read_model_table(
    "policies",
    {
        "id": "str",
        "product_id": "str",
        "name": "str",
        "duration_days": "int",
        "max_machines": "int",
        "floating": "bool",
        "entitlements": "json",
        "grace_period_days": "int",
        "heartbeat_interval_seconds": "int",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
POLICIES = Projection("Policies", POLICIES_TABLE, version="0507a1ac6263")


@POLICIES.handles("PolicyCreated", writer_only=True)
async def _policy_created_policies(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyCreated)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.upsert(
        {
            **key,
            "product_id": encode_value(event.product_id),
            "name": encode_value(event.name),
            "duration_days": encode_value(event.duration_days),
            "max_machines": encode_value(event.max_machines),
            "floating": encode_value(event.floating),
            "entitlements": encode_value(event.entitlements),
            "grace_period_days": encode_value(event.grace_period_days),
            "heartbeat_interval_seconds": encode_value(
                event.heartbeat_interval_seconds
            ),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@POLICIES.handles("PolicyUpdated", writer_only=True)
async def _policy_updated_policies(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyUpdated)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "duration_days": encode_value(event.duration_days),
            "max_machines": encode_value(event.max_machines),
            "floating": encode_value(event.floating),
            "entitlements": encode_value(event.entitlements),
            "grace_period_days": encode_value(event.grace_period_days),
            "heartbeat_interval_seconds": encode_value(
                event.heartbeat_interval_seconds
            ),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@POLICIES.handles("PolicyRemoved", writer_only=True)
async def _policy_removed_policies(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyRemoved)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.delete(key)


class ReadModelPolicyListing(RowQueries[Policy]):
    """Reads the tenant's rows of Policies (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, POLICIES, Policy)


LICENSES_TABLE = read_model_table(
    "licenses",
    {
        "id": "str",
        "key_": "str",
        "policy_id": "str",
        "product_id": "str",
        "name": "str",
        "owner": "str",
        "expires_at": "str",
        "duration_days": "int",
        "max_machines": "int",
        "status": "str",
        "machine_count": "int",
        "metadata": "json",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
LICENSES = Projection("Licenses", LICENSES_TABLE, version="35c3f901417a")


@LICENSES.handles("LicenseCreated", writer_only=True)
async def _license_created_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, LicenseCreated)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.upsert(
        {
            **key,
            "key_": encode_value(event.key_),
            "policy_id": encode_value(event.policy_id),
            "product_id": encode_value(event.product_id),
            "name": encode_value(event.name),
            "owner": encode_value(event.owner),
            "expires_at": encode_value(event.expires_at),
            "duration_days": encode_value(event.duration_days),
            "max_machines": encode_value(event.max_machines),
            "metadata": encode_value(event.metadata),
            "status": encode_value(event.status),
            "machine_count": encode_value(event.machine_count),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@LICENSES.handles("LicenseUpdated", writer_only=True)
async def _license_updated_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, LicenseUpdated)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "owner": encode_value(event.owner),
            "metadata": encode_value(event.metadata),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@LICENSES.handles("LicenseSuspended", writer_only=True)
async def _license_suspended_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, LicenseSuspended)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@LICENSES.handles("LicenseReinstated", writer_only=True)
async def _license_reinstated_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, LicenseReinstated)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@LICENSES.handles("LicenseRevokedEvent", writer_only=True)
async def _license_revoked_event_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, LicenseRevokedEvent)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@LICENSES.handles("LicenseRenewed", writer_only=True)
async def _license_renewed_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, LicenseRenewed)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "expires_at": encode_value(event.expires_at),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@LICENSES.handles("MachineClaimed", writer_only=True)
async def _machine_claimed_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, MachineClaimed)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "machine_count": encode_value(event.machine_count),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@LICENSES.handles("MachineReleased", writer_only=True)
async def _machine_released_licenses(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, MachineReleased)
    key = {
        "id": key_value(event.license_id),
    }
    await writer.update(
        key,
        {
            "machine_count": encode_value(event.machine_count),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelLicenseListing(RowQueries[License]):
    """Reads the tenant's rows of Licenses (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, LICENSES, License)


MACHINES_TABLE = read_model_table(
    "machines",
    {
        "id": "str",
        "license_id": "str",
        "fingerprint": "str",
        "name": "str",
        "platform": "str",
        "last_heartbeat_at": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
MACHINES = Projection("Machines", MACHINES_TABLE, version="39ba126e74f5")


@MACHINES.handles("MachineActivated", writer_only=True)
async def _machine_activated_machines(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, MachineActivated)
    key = {
        "id": key_value(event.machine_id),
    }
    await writer.upsert(
        {
            **key,
            "license_id": encode_value(event.license_id),
            "fingerprint": encode_value(event.fingerprint),
            "name": encode_value(event.name),
            "platform": encode_value(event.platform),
            "last_heartbeat_at": encode_value(event.last_heartbeat_at),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@MACHINES.handles("MachineHeartbeat", writer_only=True)
async def _machine_heartbeat_machines(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, MachineHeartbeat)
    key = {
        "id": key_value(event.machine_id),
    }
    await writer.update(
        key,
        {
            "last_heartbeat_at": encode_value(event.last_heartbeat_at),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@MACHINES.handles("MachineDeactivated", writer_only=True)
async def _machine_deactivated_machines(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, MachineDeactivated)
    key = {
        "id": key_value(event.machine_id),
    }
    await writer.delete(key)


class ReadModelMachineListing(RowQueries[Machine]):
    """Reads the tenant's rows of Machines (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, MACHINES, Machine)


PROJECTIONS = [PRODUCTS, POLICIES, LICENSES, MACHINES]
