"""rules.json: one per language, listing every rule id found in the pages, and nothing else."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.rulebook import book



def ids_in_docs(lang: str) -> dict[str, list[str]]:
    """The model's rule pages and ids (sitebuild/rulebook.py)."""
    found = book()
    return {name: [r.id for r in found.page(lang, name).rules] for name in found.names() if found.page(lang, name).has_rules}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_json_lists_every_rule_and_nothing_else(site, lang):
    folder = site / language_folder(lang)
    data = json.loads((folder / "rules.json").read_text(encoding="utf-8"))
    assert data["lang"] == lang
    by_page: dict[str, list[str]] = {}
    for rule in data["rules"]:
        by_page.setdefault(rule["page"].rstrip("/").split("/")[-1], []).append(rule["id"])
        assert rule["text"].strip(), rule["id"]
        assert rule["url"].endswith(f"{rule['page']}#{rule['id']}")
        # the public address when the build had one (SITE_URL), else a link from the site's root
        assert rule["url"] == f"{os.environ['SITE_URL']}{rule['page']}#{rule['id']}" if os.environ.get("SITE_URL") \
            else rule["url"] == f"/{rule['page']}#{rule['id']}"
        assert rule["kind"] in ("heading", "rule")
    assert by_page == ids_in_docs(lang)


def test_same_rules_in_every_language(site):
    def ids(folder: Path) -> list[tuple[str, str, str]]:
        rules = json.loads((folder / "rules.json").read_text(encoding="utf-8"))["rules"]
        return [(r["id"], r["section"], r["kind"]) for r in rules]
    assert ids(site) == ids(site / "fr") == ids(site / "it")


def test_rule_text_is_the_rule(site):
    rules = {r["id"]: r for r in json.loads((site / "fr" / "rules.json").read_text(encoding="utf-8"))["rules"]}
    assert rules["naruto-reserve-limits-1"]["text"].startswith("– Il ne peut pas y avoir au total plus de 30 ninjas")
    assert rules["naruto-reserve-limits-1"]["section"] == "naruto-reserve-limits"
    assert rules["jt-shame-1"]["page"] == "fr/judge-tower/"
