"""Adapters: persistence and the clock."""
