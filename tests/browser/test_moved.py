"""Old links of a renamed or removed rule (web/site/moved.js, texts/moved.json) on a revision built in a
copy (tests/revision.py): the successor opens, highlighted, with a line saying it moved; a
removed rule says so, with a link to the changes page. One language here: the words of all three are
checked on the built files (tests/site/test_revision.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from sitebuild.words import words
from tests.revision import NEW, OLD, REMOVED, build_revision


@pytest.fixture(scope="module")
def revision_site():
    work, _ = build_revision()
    return work / "site"


@pytest.mark.engine_held  # the links are the subject: no engine start (conftest: HELD_ENGINE)
def test_an_old_link_opens_the_successor_or_says_removed(own_server, fresh, revision_site):  # contexts close first
    t = words("it")
    _, origin = own_server(revision_site)
    _, page, _ = fresh(origin, service_workers="block")  # and no offline copy
    page.goto(f"{origin}/it/pokemon/")  # no calculator on the way: the naruto page is opened by its link
    page.goto(f"{origin}/it/naruto/#{OLD}")
    expect(page).to_have_url(re.compile(f"#{NEW}$"))
    successor = page.locator(f"#{NEW}")
    expect(successor).to_be_in_viewport()
    assert successor.evaluate("el => el.matches(':target')")  # highlighted as any linked rule
    expect(page.get_by_role("status").filter(has_text=t("ui.moved.here"))).to_be_visible()
    # must not: a second line when the reader follows another old link on the same page
    page.goto(f"{origin}/it/naruto/#{REMOVED}")
    line = page.locator(".rule-moved")
    expect(line).to_have_count(1)
    expect(line).to_contain_text(t("ui.moved.removed"))
    line.get_by_role("link", name=t("ui.moved.changes")).click()
    expect(page).to_have_url(f"{origin}/it/changes/")
