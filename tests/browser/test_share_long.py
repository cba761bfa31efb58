"""Long inputs and sharing, as a property: for any values in every calculator, "copy the link" and
"QR code" either share a link that reproduces the verdict or say what the link leaves out; a QR
code is one a phone can read, or the dialog says the link is too long for one. No page error (the
page is watched)."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect

from calculators import field_label
from calculators.i18n import LANGUAGES
from sitebuild.words import words
from tests.browser.conftest import expect_ready
from tests.browser.pages import expect_verdict, forms_to_type_into, summary, toast, typeable_fields

#: One instance of each calculator, its languages taken in turn (the rule pages' own first).
INSTANCES = {}
for path, calcs in forms_to_type_into().items():
    for uid, calc_id, lang in calcs:
        if calc_id not in INSTANCES and typeable_fields(path, uid) and lang == LANGUAGES[len(INSTANCES) % len(LANGUAGES)]:
            INSTANCES[calc_id] = (path, uid, lang)
for path, calcs in forms_to_type_into().items():  # a calculator not found in its turn's language
    for uid, calc_id, lang in calcs:
        if calc_id not in INSTANCES and typeable_fields(path, uid):
            INSTANCES[calc_id] = (path, uid, lang)

#: Lengths around what matters: a short value, links around what a QR code holds, a field around
#: and over what a link carries.
LENGTHS = st.sampled_from([3, 400, 1_200, 2_600, 9_999, 10_001, 14_000])
TEXT = st.text(alphabet="abcXYZ019 :,[]é\n-", min_size=1, max_size=40)

#: Sets a field's value as a paste does (a hidden widget field too) and tells calc.js.
SET = """([field, text]) => {
  const control = document.getElementById(field);
  control.value = text;
  control.dispatchEvent(new Event("input", { bubbles: true }));
  return control.value; // a one-line field drops line breaks, as it does from a paste
}"""


def shown(calc) -> tuple[str | None, str]:
    return calc.get_attribute("data-result"), summary(calc).text_content()


@pytest.mark.parametrize("calc_id", sorted(INSTANCES))
def test_a_shared_link_reproduces_the_verdict_or_says_what_it_left_out(page, new_page, site_url, calc_id):
    path, uid, lang = INSTANCES[calc_id]
    t = words(lang)
    page.goto(f"{site_url}/{path}")
    calc = page.locator(f"#{uid}")
    expect_ready(calc)
    fields = typeable_fields(path, uid)
    #: What a calculator's link is, said beside it where it has a word for it (the shame tracker's copy).
    copy_note = page.evaluate("(key) => JSON.parse(document.getElementById('page-data').textContent).words[key] ?? ''",
                              f"{calc_id}.ui.copy")

    @settings(max_examples=3, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(st.lists(st.tuples(LENGTHS, TEXT), min_size=len(fields), max_size=len(fields)))
    def check(values):
        page.keyboard.press("Escape")  # no dialog left open by an example that failed (hypothesis shrinks)
        page.evaluate("document.querySelector('.link-toast')?.setAttribute('hidden', '')")  # nor its toast
        typed = {}
        for name, (length, text) in zip(fields, values):
            typed[name] = page.evaluate(SET, [f"{uid}-{name}", (text * (length // len(text) + 1))[:length]])
        expect_verdict(calc, calc_id, lang)
        before = shown(calc)

        calc.get_by_role("button", name=t("ui.copy_calc_link"), exact=True).click()
        copied = toast(page)
        expect(copied).to_be_visible()
        link = page.evaluate("navigator.clipboard.readText()")
        in_link = dict(parse_qsl(urlsplit(link).query))
        missing = [name for name, value in typed.items()
                   if value.strip() and in_link.get(f"{uid[len('calc-'):]}.{name}") != value]
        said = copied.locator("span").first.text_content()  # its sentence (the link field and the QR button aside)
        # each field the link leaves out is named to the sharer (between the language's quotes), and only those
        # by its bare label, as errors name it (the form's "(optional)" aside: test_render.py)
        labels = {name: field_label(t, calc_id, name) for name in fields}
        named = re.findall(r"[“«]\s?([^”»]+?)\s?[”»]", said.split("#", 1)[-1] if "#" in said else said)
        assert sorted(named) == sorted(labels[name] for name in missing), said
        if not missing:
            opened = new_page()
            opened.goto(link)
            again = opened.locator(f"#{uid}")
            expect_ready(again)
            expect(again).to_have_attribute("data-result", before[0] or "")
            expect(summary(again)).to_have_text(before[1])
            opened.close()

        copied.get_by_role("button", name=t("ui.qr.button"), exact=True).click()  # the toast offers the same link's code
        dialog = page.get_by_role("dialog", name=t("ui.qr.title"))
        expect(dialog).to_be_visible()
        if dialog.get_attribute("data-qr") == "shown":
            expect(dialog.locator("svg.qr-code")).to_have_attribute("data-qr-text", link)
        else:
            expect(dialog.locator(".qr-too-long")).to_have_text(t("ui.qr.too_long"))
            assert len(link) > 500, "a short link is always given its QR code"
        note = dialog.locator(".qr-note")
        if missing or copy_note:  # the dialog says it too (and what the tracker's link is: a copy of its counters)
            expect(note).to_be_visible()
            assert note.text_content() in said and copy_note in note.text_content()
        else:
            expect(note).to_be_hidden()
        dialog.get_by_role("button", name=t("ui.qr.close"), exact=True).click()
        expect(dialog).to_be_hidden()

    check()
