"""Security primitives: password hashing, signing keys and tokens, permission and policy checks."""
