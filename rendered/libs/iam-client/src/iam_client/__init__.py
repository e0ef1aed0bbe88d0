"""IAM client: local JWT validation against cached JWKS, introspection, permission checks, FastAPI dependencies"""
