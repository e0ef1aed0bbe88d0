"""Offline verifier of the licensing service's signed license files: Ed25519 signature against the published keys, expiry of the file and of the license, the license's facts as a typed value"""
