"""The build's rewrites of HTML fail loudly when their target is missing (one policy)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sitebuild import csp, rules_json
from sitebuild.rule_links import add_rule_links


def test_rule_links_refuse_headings_without_the_expected_permalink():
    with pytest.raises(ValueError, match="headerlink"):
        add_rule_links('<h2 id="naruto-rounds">Rounds</h2>', "en")
    assert add_rule_links("<p>No rule here.</p>", "en") == "<p>No rule here.</p>"


def test_rules_json_refuses_a_page_without_its_article(tmp_path):
    for lang in ("", "fr/", "it/"):
        (tmp_path / lang / "naruto").mkdir(parents=True)
        (tmp_path / lang / "naruto" / "index.html").write_text("<html><body><main>no article</main></body></html>")
    with pytest.raises(ValueError, match="article"):
        rules_json.write_rules(tmp_path, "http://example.org/")


def test_csp_refuses_a_page_without_head_or_with_a_policy():
    with pytest.raises(ValueError, match="no <head>"):
        csp.add_policy("<html><body></body></html>")
    once = csp.add_policy('<html><head><meta charset="utf-8"></head></html>')
    with pytest.raises(ValueError, match="already"):
        csp.add_policy(once)


def test_finish_imports_no_mkdocs():
    """The post-build step is callable on any generator's output: importing it loads no MkDocs."""
    code = "import sys, sitebuild.finish; print(any(m.split('.')[0] == 'mkdocs' for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_bytecode_goes_where_it_saves_most_compiling_per_byte_added(tmp_path, monkeypatch):
    """keep_as_bytecode: the most source saved per Brotli byte added first, never over the budget,
    and a module whose bytecode costs nothing more always."""
    import random
    import zipfile

    from sitebuild import stdlib

    noise = random.Random(7)

    def incompressible(size: int) -> bytes:
        return bytes(noise.getrandbits(8) for _ in range(size))

    both = tmp_path / "both.zip"
    with zipfile.ZipFile(both, "w") as archive:
        # (source, bytecode): sources compress to almost nothing, bytecode not at all.
        for name, source, code in [("big.py", 40_000, 3_000), ("small.py", 4_000, 3_000),
                                   ("same.py", 1_000, 0), ("costly.py", 2_000, 9_000)]:
            archive.writestr(name, b"x = 1\n" * (source // 6))
            archive.writestr(name + "c", incompressible(code) if code else b"x = 1\n" * (source // 6))
        archive.writestr("data.txt", b"not a module")
    monkeypatch.setattr(stdlib, "BYTECODE_BUDGET", 7_000)
    with zipfile.ZipFile(both) as archive:
        assert stdlib.keep_as_bytecode(archive) == {"same.py", "big.py", "small.py"}
    monkeypatch.setattr(stdlib, "BYTECODE_BUDGET", 4_000)
    with zipfile.ZipFile(both) as archive:
        assert stdlib.keep_as_bytecode(archive) == {"same.py", "big.py"}
    out = stdlib.one_form_each(both, tmp_path / "out.zip")
    assert sorted(zipfile.ZipFile(out).namelist()) == ["big.pyc", "costly.py", "data.txt", "same.pyc", "small.py"]
