"""Test session set-up shared by unit and browser tests: compiled catalogs must be current."""

from tools.compile_catalogs import compile_all

compile_all()
