"""Framework runtime: security context, event sourcing, messaging, projectors, observability, configuration"""
