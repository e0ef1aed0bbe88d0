"""The application: use cases (input ports), output ports and their services."""
