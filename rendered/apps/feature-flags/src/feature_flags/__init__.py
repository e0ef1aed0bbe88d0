"""Feature flags of a tenant's projects and environments, evaluated over OpenFeature's remote evaluation protocol (OFREP) and the Unleash client API"""
