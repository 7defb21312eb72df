"""Lease and sharded-service tests: each runs on SQLite and on PostgreSQL (`database`,
tests/backends.py)."""

from tests.backends import database as database  # each test on both backends
