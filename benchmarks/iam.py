"""Token validation against raw joserfc, side by side on the same ES256 access token.

ours: ``await client.validate(token)`` + ``client.has_permission(user, ...)`` of an
IamClient in static JWKS mode (warm cache): header checks, cached key lookup, signature,
every claim check, the User, and a wildcard permission check.
raw:  ``jwt.decode(token, public_key)`` + ``JWTClaimsRegistry(...).validate(claims)`` with
the imported public key at hand.

Twice: the same token every call (a session's requests: the verifier remembers a token
whose signature it verified, and redoes every claim check), and a new token every call
(first sight: the signature is checked).

Each side runs ROUNDS rounds of ITERATIONS calls, interleaved; the median per-call time
over the rounds counts. The last line is the ratio.

    python benchmarks/iam.py [iterations]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for source in ("rendered/libs/eaf/src", "rendered/libs/iam-client/src"):
    sys.path.insert(0, str(ROOT / source))

from eaf.security import KeyRing, TokenIssuer  # noqa: E402
from iam_client import IamClient  # noqa: E402
from joserfc import jwt  # noqa: E402
from joserfc.jwk import ECKey  # noqa: E402

ROUNDS = 7
ISSUER = "https://iam.bench"
AUDIENCE = "bench-api"


async def per_call(iterations: int, call: Callable[[], Awaitable[None]]) -> float:
    started = time.perf_counter()
    for _ in range(iterations):
        await call()
    return (time.perf_counter() - started) / iterations


def raw_check(token: str, public_key: ECKey) -> None:
    """The baseline: joserfc's decode and its claims registry, the key at hand."""
    decoded = jwt.decode(token, public_key, algorithms=["ES256"])
    jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": ISSUER},
        aud={"essential": True, "value": AUDIENCE},
        sub={"essential": True},
        exp={"essential": True},
        iat={"essential": True},
        jti={"essential": True},
    ).validate(decoded.claims)


async def main(iterations: int) -> None:
    ring = KeyRing.generate()
    issued = TokenIssuer(ring, issuer=ISSUER, default_audience=AUDIENCE).issue(
        subject="u1",
        client_id="web",
        tenant_id="acme",
        roles=["reader"],
        permissions=["user-profile:read", "license:*"],
        scope=["openid"],
    )
    token = issued.token
    client = IamClient(issuer=ISSUER, audience=AUDIENCE, jwks=ring.jwks())
    public_key = ECKey.import_key(ring.jwks()["keys"][0])

    async def ours() -> None:
        user = await client.validate(token)
        assert client.has_permission(user, "user-profile:read")

    async def raw() -> None:
        raw_check(token, public_key)

    await per_call(200, ours)  # warm up: JWKS imported, caches filled
    await per_call(200, raw)
    times: dict[str, list[float]] = {"ours": [], "raw": []}
    runs = [("ours", ours), ("raw", raw)]
    for round_ in range(ROUNDS):
        for name, call in runs if round_ % 2 == 0 else reversed(runs):
            times[name].append(await per_call(iterations, call))

    ours_median = statistics.median(times["ours"])
    raw_median = statistics.median(times["raw"])
    print(f"{iterations} calls x {ROUNDS} interleaved rounds, median per call")
    print(f"{'validate+has_permission:':<26} {ours_median * 1e6:8.1f} us")
    print(f"{'raw joserfc decode+claims:':<26} {raw_median * 1e6:8.1f} us")
    print(f"ratio (ours/raw median time): {ours_median / raw_median:.2f} (target <= 1.5)")

    issuer = TokenIssuer(ring, issuer=ISSUER, default_audience=AUDIENCE)
    first: dict[str, list[float]] = {"ours": [], "raw": []}
    for round_ in range(ROUNDS):
        tokens = [
            issuer.issue(subject=f"u{n}", client_id="web", tenant_id="acme").token
            for n in range(iterations // 5)
        ]
        fresh = iter(tokens)
        other = iter(tokens)

        async def ours_first(fresh: Iterator[str] = fresh) -> None:
            user = await client.validate(next(fresh))
            client.has_permission(user, "user-profile:read")

        async def raw_first(other: Iterator[str] = other) -> None:
            raw_check(next(other), public_key)

        pair = [("ours", ours_first), ("raw", raw_first)]
        for name, call in pair if round_ % 2 == 0 else reversed(pair):
            first[name].append(await per_call(len(tokens), call))
    ours_first_median = statistics.median(first["ours"])
    raw_first_median = statistics.median(first["raw"])
    print(f"{'first sight (new tokens):':<26} {ours_first_median * 1e6:8.1f} us")
    print(f"{'raw joserfc, new tokens:':<26} {raw_first_median * 1e6:8.1f} us")
    print(f"ratio, first sight: {ours_first_median / raw_first_median:.2f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5_000))
