"""Tournament tests run the table service's fixtures (tests/tables/conftest.py) on both
backends."""

from tests.backends import database as database  # each test on both backends
from tests.tables.conftest import recorder as recorder
from tests.tables.conftest import service as service
