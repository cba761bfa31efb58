"""Test session set-up shared by unit and browser tests: compiled catalogs must be current."""

import pytest

from tools.compile_catalogs import compile_all


@pytest.fixture(scope="session", autouse=True)
def catalogs():
    """Compile the catalogs once, before any test reads them (a fixture, not an import side effect,
    so that collection alone writes nothing)."""
    compile_all()
