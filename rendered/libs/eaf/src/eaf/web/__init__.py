"""HTTP for rendered services: resource conventions (ETags, idempotency keys, list
queries)."""
