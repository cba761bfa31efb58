"""`make bench`, a module per family of measures; run as ``python -m tools.bench`` (__main__.py says what each
measure is)."""
