"""Secret property values encrypted at rest (hand-written): AES-256-GCM under the key ring
of ``eaf.security.SecretBox`` (``configuration.keys_file``, created with one key on first
start and never committed). The associated data binds a ciphertext to its tenant, property
set and property name: moved anywhere else, it does not open.
"""

from eaf.security import SecretBox, SecretError

__all__ = ["SecretBox", "SecretError", "sealed_for"]


def sealed_for(tenant: str, set_key: str, name: str) -> bytes:
    """The associated data of a secret: where it belongs."""
    return f"{tenant}\x1f{set_key}\x1f{name}".encode()
