"""The stable hash Unleash buckets users with (MurmurHash3, 32-bit x86)."""

import mmh3

VARIANT_SEED = 86028157


def normalized_hash(
    identifier: str, group_id: str, normalizer: int = 100, seed: int = 0
) -> int:
    """A bucket in 1..normalizer for `identifier` within `group_id`, the same in every Unleash SDK."""
    return mmh3.hash(f"{group_id}:{identifier}", seed, signed=False) % normalizer + 1
