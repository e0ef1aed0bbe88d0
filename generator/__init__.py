"""Render hexagonal, event-driven FastAPI services and libraries from YAML specs."""
