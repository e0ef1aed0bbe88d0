"""FastAPI dependencies: the bearer token of a request as its security context, permission guards."""
