"""Sample user profile records of a tenant"""
