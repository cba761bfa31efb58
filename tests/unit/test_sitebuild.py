"""The build's rewrites of HTML fail loudly when their target is missing (one policy)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sitebuild import csp


def test_csp_refuses_a_page_without_head_or_with_a_policy():
    with pytest.raises(ValueError, match="no <head>"):
        csp.add_policy("<html><body></body></html>")
    once = csp.add_policy('<html><head><meta charset="utf-8"></head></html>')
    with pytest.raises(ValueError, match="already"):
        csp.add_policy(once)


def test_finish_imports_no_mkdocs():
    """The post-build step is callable on any generator's output, and the rules' Markdown extension runs
    under any generator of Python-Markdown: importing them loads no MkDocs."""
    code = "import sys, sitebuild.finish, sitebuild.rule_markup; print(any(m.split('.')[0] == 'mkdocs' for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"

