"""Ports of the application layer."""
