"""What the circuit breaker counts: IAM unreachable or failing (5xx) opens it; IAM's
refusals (4xx) are answers and never do. tests/test_iam_e2e.py stops and restarts a real
IAM under it."""

from __future__ import annotations

import httpx
import pytest
from eaf.security import TokenIssuer

from iam_client import IamClient, IamDownError, IamUnavailableError

IAM = "http://iam.test"


def client_answering(status: int, issuer: TokenIssuer) -> IamClient:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"detail": "no"})

    return IamClient(
        IAM,
        issuer="https://iam.test",
        audience="licensing-api",
        http=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
        breaker_failures=2,
        breaker_recovery=60,
    )


async def test_failures_of_iam_open_the_circuit(issuer: TokenIssuer) -> None:
    client = client_answering(503, issuer)
    for _ in range(2):
        with pytest.raises(IamDownError):
            await client.introspect("a-token")
    assert client.breaker.state == "open"
    with pytest.raises(IamUnavailableError, match="not sent"):
        await client.introspect("a-token")


async def test_refusals_of_iam_are_answers_not_failures(issuer: TokenIssuer) -> None:
    client = client_answering(403, issuer)
    for _ in range(5):
        with pytest.raises(IamUnavailableError) as refused:
            await client.introspect("a-token")
        assert not isinstance(refused.value, IamDownError)
    assert client.breaker.state == "closed"
    assert client.breaker.failure_count == 0
