"""Software licenses of a tenant's products (policies, keys, machine activation, heartbeats, suspension, renewal), validated with precise codes and checked out as signed offline license files"""
