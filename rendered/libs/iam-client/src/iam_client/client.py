"""IamClient: local token validation against cached JWKS, introspection, permission checks."""
