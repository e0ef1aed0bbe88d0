"""An HTTP client that forwards the bearer token and correlation id of the current context."""
