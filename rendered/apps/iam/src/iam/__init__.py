"""Identity and access management - tenants, users, roles, policies and tokens"""
