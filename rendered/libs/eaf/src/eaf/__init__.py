"""Framework runtime: security context, event sourcing, messaging, observability, configuration"""
