"""Framework runtime: security context, security primitives (passwords, tokens, authorization), event sourcing, messaging, projectors, observability, configuration"""
