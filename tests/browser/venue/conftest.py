"""The round clock and the blitz timer are tested with Playwright's fake clock (``page.clock``),
which fakes time for a whole browser context: here ``page`` is a page in a context of its own, never
the session's shared, warmed one (tests/browser/conftest.py)."""

from __future__ import annotations

import datetime as dt

import pytest

#: The fake clock's start: a Saturday afternoon at a venue.
START = dt.datetime(2026, 11, 28, 14, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def page(cold_page):
    return cold_page
