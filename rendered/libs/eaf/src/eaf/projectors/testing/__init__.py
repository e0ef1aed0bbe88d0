"""The contract every projection store passes, and the sample projections it uses.

Subclass :class:`ProjectionStoreContract` and provide two fixtures: ``event_store``
(a fresh, empty event store) and ``projection_store`` (a fresh, empty projection
store; for SQL, typically on the event store's database). It runs the paged query
contract (:class:`QueryContract`) and the schema contract (:class:`SchemaContract`)
too."""

from eaf.projectors.testing.helpers import (
    FAST_RETRY,
    ORDER_COLUMNS,
    ORDERS,
    account_projection,
    all_rows,
    as_tenant,
    deposit,
    open_account,
    order_projection,
    place,
    stored,
    then,
)
from eaf.projectors.testing.queries import QueryContract
from eaf.projectors.testing.schemas import SchemaContract
from eaf.projectors.testing.store import ProjectionStoreContract

__all__ = [
    "FAST_RETRY",
    "ORDERS",
    "ORDER_COLUMNS",
    "ProjectionStoreContract",
    "QueryContract",
    "SchemaContract",
    "account_projection",
    "all_rows",
    "as_tenant",
    "deposit",
    "open_account",
    "order_projection",
    "place",
    "stored",
    "then",
]
