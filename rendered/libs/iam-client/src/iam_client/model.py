"""The authenticated user and the errors of validation."""
