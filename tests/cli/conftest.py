"""Command-line tests that take a database run on both backends."""

from tests.backends import database as database  # each test on both backends
