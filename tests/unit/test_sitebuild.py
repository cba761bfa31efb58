"""The build's rewrites of HTML fail loudly when their target is missing (one policy)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sitebuild import csp, rules_json
from sitebuild.rule_links import add_rule_links
from sitebuild.words import words


def test_rule_links_refuse_headings_without_the_expected_permalink():
    with pytest.raises(ValueError, match="headerlink"):
        add_rule_links('<h2 id="naruto-rounds">Rounds</h2>', "en")
    assert add_rule_links("<p>No rule here.</p>", "en") == "<p>No rule here.</p>"


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_a_heading_link_says_section_and_a_rule_link_says_rule(lang):
    """A heading ("Glossary", a page title) is not a rule: its control says so, as the QR dialog does."""
    t = words(lang)
    html = add_rule_links('<h2 id="g">Glossary<a class="headerlink" href="#g" title="Permanent link">¶</a></h2>'
                          '<p id="r-1">A rule.</p>', lang)
    heading, rule = html.split("</h2>")
    assert f'aria-label="{t("ui.copy_section_link")}"' in heading and t("ui.copy_link") not in heading
    assert f'aria-label="{t("ui.copy_link")}"' in rule
    assert t("ui.copy_section_link") != t("ui.copy_link")


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

