"""Test session set-up shared by unit and browser tests: compiled catalogs must be current."""

import pytest

from tools.compile_catalogs import compile_all


@pytest.fixture(scope="session", autouse=True)
def catalogs():
    """Compile the catalogs once, before any test reads them (a fixture, not an import side effect,
    so that collection alone writes nothing)."""
    compile_all()



#: The files whose tests take longest (a page visited in every state, cold engine starts, a site built
#: again): each of the two workers starts with half of them, so that both end on short tests rather than
#: one on a long test with the other idle (notes/test-speed.md).
LONGEST_FIRST = ("tests/browser/test_pseudo_locale.py", "tests/browser/test_each_page.py",
                 "tests/browser/test_offline.py", "tests/browser/test_integrity.py", "tests/browser/test_storage.py",
                 "tests/browser/test_failures.py", "tests/site/test_revision.py")


def pytest_collection_modifyitems(config, items):
    """pytest-xdist's work-stealing gives each worker a contiguous half of this list, then moves tests
    from the tail of the busier one: the long tests go, in turn, to the head of each half."""
    long = sorted((item for item in items if item.nodeid.split("::")[0] in LONGEST_FIRST),
                  key=lambda item: LONGEST_FIRST.index(item.nodeid.split("::")[0]))
    rest = [item for item in items if item.nodeid.split("::")[0] not in LONGEST_FIRST]
    half = len(items) // 2
    first = long[0::2] + rest[: max(0, half - len(long[0::2]))]
    items[:] = first + long[1::2] + rest[len(first) - len(long[0::2]):]
