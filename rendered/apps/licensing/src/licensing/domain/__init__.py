"""The domain: aggregates, events and the ports they need (pure Python)."""
