"""The paged query contract: every store filters, sorts, pages and counts alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from eaf.context import MissingTenantError, platform_context, use
from eaf.eventsourcing.ports import EventStore
from eaf.projectors.follow import StoreFollower
from eaf.projectors.paging import Condition, OrderBy, Page
from eaf.projectors.ports import ProjectionStore
from eaf.projectors.projector import Projector
from eaf.projectors.query import ReadModel
from eaf.projectors.testing.helpers import (
    FAST_RETRY,
    ORDERS,
    as_tenant,
    order_projection,
    place,
)

GLOBEX = {
    "g1": {"customer": "ann", "total": 20.0, "items": 1, "paid": True, "due": None}
}


async def _page(
    model: ReadModel,
    *where: Condition,
    order_by: Sequence[OrderBy] = (),
    limit: int = 100,
    offset: int = 0,
    tenant: str = "acme",
) -> Page:
    with as_tenant(tenant):
        return await model.page(
            where=where, order_by=order_by, limit=limit, offset=offset
        )


async def _ids(model: ReadModel, *where: Condition, **options: Any) -> list[str]:
    return [row["id"] for row in (await _page(model, *where, **options)).rows]


@pytest.mark.asyncio
class QueryContract:
    @pytest.fixture
    async def orders(
        self, event_store: EventStore, projection_store: ProjectionStore
    ) -> ReadModel:
        projection = order_projection()
        projector = Projector(projection, projection_store, retry=FAST_RETRY)
        await projector.start()
        await place(event_store, "acme", ORDERS)
        await place(event_store, "globex", GLOBEX)
        await StoreFollower(projector, event_store).run_until_idle()
        return ReadModel(projection_store, projection)

    @pytest.mark.parametrize(
        ("condition", "expected"),
        [
            (Condition("customer", "eq", "ann"), ["o1", "o3"]),
            (Condition("customer", "in", ["cid", "bob"]), ["o2", "o4", "o5"]),
            (Condition("total", "gt", 20.0), ["o5"]),
            (Condition("total", "gte", 20), ["o2", "o4", "o5"]),
            (Condition("total", "eq", 20), ["o2", "o4"]),
            (Condition("items", "lt", 2), ["o1", "o5"]),
            (Condition("items", "lte", 2), ["o1", "o3", "o5", "o6"]),
            (Condition("items", "gt", 2.5), ["o2", "o4"]),
            (Condition("paid", "eq", True), ["o1", "o4", "o5"]),
            (Condition("paid", "eq", False), ["o2", "o3"]),
            (Condition("paid", "in", [False]), ["o2", "o3"]),
            (Condition("note", "is_null", True), ["o2", "o4"]),
            (Condition("note", "is_null", False), ["o1", "o3", "o5", "o6"]),
            (Condition("paid", "is_null", True), ["o6"]),
            (Condition("due", "gte", "2024-01-20"), ["o2", "o3", "o6"]),
            (Condition("due", "lt", "2024-01-01"), ["o5"]),
            (Condition("customer", "lt", "ann"), ["o6"]),
            (Condition("note", "gt", "z"), ["o6"]),
            (Condition("id", "in", ("o2", "g1")), ["o2"]),
            (Condition("customer", "eq", "ANN", ignore_case=True), ["o1", "o3", "o6"]),
            (
                Condition("customer", "in", ["Bob", "cId"], ignore_case=True),
                ["o2", "o4", "o5"],
            ),
            (Condition("note", "eq", "X", ignore_case=True), ["o1"]),
            # Integers beyond what the column (or any driver) holds compare as numbers.
            (Condition("items", "lt", 2**70), ["o1", "o2", "o3", "o4", "o5", "o6"]),
            (Condition("items", "gte", -(2**70)), ["o1", "o2", "o3", "o4", "o5", "o6"]),
            (Condition("items", "gt", 2**40), []),
            (Condition("items", "lte", -(2**40)), []),
            (Condition("items", "eq", 2**64), []),
            (Condition("items", "in", [2**64, 0]), ["o5"]),
            (Condition("items", "in", [-(2**64)]), []),
            (Condition("total", "lt", 2**70), ["o1", "o2", "o3", "o4", "o5", "o6"]),
            (Condition("total", "gt", 10**400), []),
        ],
        ids=lambda value: (
            f"{value.column}-{value.op}-{str(value.value)[:24]}"
            + ("-ignoring-case" if value.ignore_case else "")
            if isinstance(value, Condition)
            else ""
        ),
    )
    async def test_each_operator(
        self, orders: ReadModel, condition: Condition, expected: list[str]
    ) -> None:
        page = await _page(orders, condition)
        assert ([row["id"] for row in page.rows], page.total) == (
            expected,
            len(expected),
        )

    async def test_conditions_combine_with_and(self, orders: ReadModel) -> None:
        assert await _ids(
            orders,
            Condition("customer", "in", ["ann", "bob"]),
            Condition("total", "gte", 10),
            Condition("note", "is_null", False),
        ) == ["o1", "o5"]
        assert await _ids(
            orders, Condition("customer", "eq", "ann"), Condition("paid", "eq", True)
        ) == ["o1"]
        empty = await _page(
            orders, Condition("customer", "eq", "ann"), Condition("items", "gt", 9)
        )
        assert (empty.rows, empty.total) == ([], 0)

    async def test_rows_hold_every_column_with_its_type(
        self, orders: ReadModel
    ) -> None:
        [row] = (await _page(orders, Condition("id", "eq", "o1"))).rows
        assert row == {"tenant_id": "acme", "id": "o1", "tags": None, **ORDERS["o1"]}
        assert [type(row[name]) for name in ("total", "items", "paid")] == [
            float,
            int,
            bool,
        ]

    async def test_sorting_with_ties_broken_by_key(self, orders: ReadModel) -> None:
        ascending = ["o3", "o6", "o1", "o2", "o4", "o5"]
        assert await _ids(orders, order_by=[("total", False)]) == ascending
        assert await _ids(orders, order_by=[("total", True)]) == [
            "o5",
            "o2",
            "o4",
            "o1",
            "o6",
            "o3",
        ]
        # Strings by code point: upper case first.
        assert await _ids(orders, order_by=[("customer", False), ("items", True)]) == [
            "o6",
            "o3",
            "o1",
            "o2",
            "o5",
            "o4",
        ]
        assert await _ids(orders) == ["o1", "o2", "o3", "o4", "o5", "o6"]

    async def test_nulls_sort_last_either_way(self, orders: ReadModel) -> None:
        assert await _ids(orders, order_by=[("note", False)]) == [
            "o1",
            "o3",
            "o5",
            "o6",
            "o2",
            "o4",
        ]
        assert await _ids(orders, order_by=[("note", True)]) == [
            "o6",
            "o5",
            "o3",
            "o1",
            "o2",
            "o4",
        ]
        assert await _ids(orders, order_by=[("paid", False)]) == [
            "o2",
            "o3",
            "o1",
            "o4",
            "o5",
            "o6",
        ]
        assert await _ids(orders, order_by=[("paid", True)]) == [
            "o1",
            "o4",
            "o5",
            "o2",
            "o3",
            "o6",
        ]
        assert await _ids(orders, order_by=[("due", False)]) == [
            "o5",
            "o1",
            "o3",
            "o2",
            "o6",
            "o4",
        ]

    async def test_windows_and_total(self, orders: ReadModel) -> None:
        by_total: list[OrderBy] = [("total", False)]
        windows = [
            (await _page(orders, order_by=by_total, limit=2, offset=offset))
            for offset in (0, 2, 4, 6, 10)
        ]
        assert [[row["id"] for row in page.rows] for page in windows] == [
            ["o3", "o6"],
            ["o1", "o2"],
            ["o4", "o5"],
            [],
            [],
        ]
        assert {page.total for page in windows} == {6}
        nothing = await _page(orders, limit=0)
        assert (nothing.rows, nothing.total) == ([], 6)
        anns = await _page(
            orders, Condition("customer", "eq", "ann"), limit=1, offset=1
        )
        assert ([row["id"] for row in anns.rows], anns.total) == (["o3"], 2)

    async def test_pages_see_only_the_current_tenant(self, orders: ReadModel) -> None:
        globex = await _page(orders, tenant="globex")
        assert ([row["id"] for row in globex.rows], globex.total) == (["g1"], 1)
        assert {row["tenant_id"] for row in globex.rows} == {"globex"}
        other = await _page(orders, Condition("id", "eq", "g1"))
        assert (other.rows, other.total) == ([], 0)
        with pytest.raises(MissingTenantError):
            await orders.page(limit=10)
        with use(platform_context()), pytest.raises(MissingTenantError):
            await orders.page(limit=10)

    @pytest.mark.parametrize(
        ("where", "order_by", "message"),
        [
            ([Condition("nope", "eq", "x")], [], "no column 'nope'"),
            ([], [("nope", False)], "no column 'nope'"),
            ([Condition("tenant_id", "eq", "globex")], [], "security context"),
            ([], [("tenant_id", False)], "security context"),
            ([Condition("tags", "is_null", True)], [], "cannot filter or sort"),
            ([], [("tags", False)], "cannot filter or sort"),
            ([Condition("total", "eq", "20")], [], "holds float"),
            ([Condition("items", "gt", True)], [], "holds int"),
            ([Condition("paid", "eq", 1)], [], "holds bool"),
            ([Condition("customer", "in", ["ann", 5])], [], "holds str"),
        ],
    )
    async def test_a_query_no_store_may_run_is_refused(
        self,
        orders: ReadModel,
        where: list[Condition],
        order_by: list[OrderBy],
        message: str,
    ) -> None:
        with pytest.raises(ValueError, match=message):
            await _page(orders, *where, order_by=order_by)

    async def test_malformed_conditions_and_windows_are_refused(
        self, orders: ReadModel
    ) -> None:
        bad: list[tuple[Any, Any, str]] = [
            ("like", "a%", "unknown operator 'like'"),
            ("in", [], "non-empty"),
            ("in", "ann", "non-empty"),
            ("is_null", "yes", "True or False"),
            ("eq", None, "use is_null"),
            ("in", ["ann", None], "use is_null"),
        ]
        for op, value, message in bad:
            with pytest.raises(ValueError, match=message):
                Condition("customer", op, value)
        folded: list[tuple[Any, Any, str]] = [
            ("gt", "ann", "only eq and in ignore case"),
            ("eq", 2, "only text"),
            ("in", ["ann", 2], "only text"),
        ]
        for op, value, message in folded:
            with pytest.raises(ValueError, match=message):
                Condition("customer", op, value, ignore_case=True)
        for limit, offset in ((-1, 0), (10, -1)):
            with pytest.raises(ValueError, match="negative"):
                await _page(orders, limit=limit, offset=offset)
