"""Layered configuration of a tenant's applications per profile and label, validated by a JSON Schema per application, secrets encrypted at rest, versioned, watched"""
