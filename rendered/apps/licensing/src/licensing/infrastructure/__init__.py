"""Adapters: web, persistence, configuration."""
