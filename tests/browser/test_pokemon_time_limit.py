"""pokemon-time-limit end to end in fr, it and en: the form built at build time, Python in a worker, the verdict."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import LANGUAGES, Translator, language_folder
from tests.browser.conftest import expect_ready
from tests.browser.pages import details, field_error, field_errors, summary, verdict_region

ID = "pokemon-time-limit"
PAGES = {"en": "pokemon/", "fr": "fr/pokemon/", "it": "it/pokemon/"}
PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}


def words(lang: str) -> dict[str, str]:
    """Labels and legends, as the catalogs word them."""
    t = Translator(lang)
    keys = {"format": "format.label", "bo3": "format.bo3", "prizes_a": "prizes_a.label", "prizes_b": "prizes_b.label",
            "games_a": "games_a.label", "games_b": "games_b.label", "in_progress": "in_progress.label",
            "no": "in_progress.no"}
    return {name: t(f"{ID}.{key}") for name, key in keys.items()}


def answer_late(calc, lang: str, choice: str = "no") -> None:
    """Answer both late questions (criterion 1), which start unanswered."""
    t = Translator(lang)
    for field in ("late_a", "late_b"):
        calc.locator(f'[data-field="{field}"]').get_by_label(t(f"{ID}.{field}.{choice}"), exact=True).check()


def open_best_of_three(open_calc, lang: str):
    """The rule page's calculator, best of three chosen and both late questions answered "no"."""
    words_ = words(lang)
    calc = open_calc(PAGES[lang], ID)
    calc.get_by_role("group", name=words_["format"]).get_by_label(words_["bo3"], exact=True).check()
    answer_late(calc, lang)
    return calc


#: The late questions answered "no", as answer_late() does.
NOT_LATE = {"late_a": "no", "late_b": "no"}


def as_attribute(result) -> str:
    return json.dumps(result, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_single_game_decided_by_prize_cards(open_calc, page, lang):
    words_ = words(lang)
    calc = open_calc(PAGES[lang], ID)
    answer_late(calc, lang)
    page.get_by_label(words_["prizes_a"], exact=True).fill("4")
    # A single game does not use games won nor "game in progress": once evaluated, the form does not show them.
    expect(page.get_by_label(words_["games_a"], exact=True)).to_be_hidden()
    expect(calc.get_by_role("group", name=words_["in_progress"])).to_be_hidden()
    page.get_by_label(words_["prizes_b"], exact=True).fill("2")
    said = summary(calc)
    cli = evaluate(ID, {"format": "bo1", **NOT_LATE, "prizes_a": "4", "prizes_b": "2"}, lang)
    assert cli["result"]["winner"] == "b" and cli["result"]["sudden_death"] is False
    expect(said).to_have_text(cli["summary"])
    expect(calc).to_have_attribute("data-result", as_attribute(cli["result"]))
    expect(details(calc)).to_have_text(cli["details"])
    # Must not happen: an error next to the verdict.
    expect(field_errors(calc).filter(visible=True)).to_have_count(0)

    page.get_by_label(words_["prizes_b"], exact=True).fill("0")  # 0 means that game is already won
    error = field_error(calc, "prizes_b")
    expect(error).to_have_text(evaluate(ID, {**NOT_LATE, "prizes_a": "4", "prizes_b": "0"}, lang)["errors"][0]["message"])
    expect(calc).to_have_attribute("data-result", "null")
    expect(said).to_have_text("")


@pytest.mark.engine_held  # the form's own script, before Python starts
@pytest.mark.parametrize("lang", ["en"])  # one language (conftest: "Languages")
def test_late_question_follows_the_format(page, site_url, lang):
    """The late/absent question states the chosen format's condition exactly, even before Python starts."""
    t = Translator(lang)
    page.goto(f"{site_url}/{PAGES[lang]}")
    calc = page.locator(f"#calc-{ID}")
    bo1, bo3 = (t(f"{ID}.late_a.label.{fmt}") for fmt in ("bo1", "bo3"))
    expect(calc.get_by_role("group", name=bo1, exact=True)).to_be_visible()
    expect(calc.get_by_role("group", name=bo3, exact=True)).to_have_count(0)
    calc.get_by_role("group", name=words(lang)["format"]).get_by_label(words(lang)["bo3"], exact=True).check()
    expect(calc.get_by_role("group", name=bo3, exact=True)).to_be_visible()
    expect(calc.get_by_role("group", name=bo1, exact=True)).to_have_count(0)
    expect(calc.get_by_role("group", name=t(f"{ID}.late_b.label.bo3"), exact=True)).to_be_visible()


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_no_verdict_before_the_answers_it_needs(open_calc, page, lang):
    """Issue 46 defect 3: choosing best of three showed "Sudden Death" from empty games won (read as 0-0)."""
    words_ = words(lang)
    calc = open_best_of_three(open_calc, lang)
    blank = evaluate(ID, {"format": "bo3", **NOT_LATE}, lang)
    assert [e["code"] for e in blank["errors"]] == ["needed", "needed"]
    notes = field_errors(calc).filter(visible=True)
    expect(notes).to_have_text([e["message"] for e in blank["errors"]])
    # Neutral notes, no verdict: nothing reads as a ruling, nothing is marked wrong.
    for note in notes.all():
        expect(note).to_have_class("calc-error calc-needed")
    expect(calc.locator("[aria-invalid]")).to_have_count(0)
    expect(summary(calc)).to_have_text("")
    expect(calc).to_have_attribute("data-result", "null")
    # Enter (a phone keyboard's Go) asks for the answer: what is still missing is now an error.
    games_b = page.get_by_label(words_["games_b"], exact=True)
    page.get_by_label(words_["games_a"], exact=True).fill("1")
    games_b.press("Enter")
    expect(games_b).to_have_attribute("aria-invalid", "true")
    expect(field_error(calc, "games_b")).to_have_class("calc-error")
    games_b.fill("1")
    # Equal games: "game in progress" is asked, never assumed (issue 62 item 1: it started on No, and 1-1
    # showed Sudden Death before the judge had answered): nothing checked, its note, no verdict.
    group = calc.get_by_role("group", name=words_["in_progress"])
    expect(field_error(calc, "in_progress")).to_have_text(
        evaluate(ID, {"format": "bo3", **NOT_LATE, "games_a": "1", "games_b": "1"}, lang)["errors"][0]["message"])
    expect(field_errors(calc).filter(visible=True)).to_have_count(1)
    expect(group.locator("input:checked")).to_have_count(0)
    expect(summary(calc)).to_have_text("")
    expect(calc).to_have_attribute("data-result", "null")

    # Answered No: Sudden Death (18.5.3), as the CLI says.
    group.get_by_label(words_["no"], exact=True).check()
    expect(field_errors(calc).filter(visible=True)).to_have_count(0)
    cli = evaluate(ID, {"format": "bo3", **NOT_LATE, "games_a": "1", "games_b": "1", "in_progress": "no"}, lang)
    assert cli["result"]["sudden_death"] is True and cli["result"]["winner"] is None
    said = summary(calc)
    expect(said).to_have_text(cli["summary"])
    expect(said).to_contain_text("18.5.3")
    expect(calc).to_have_attribute("data-result", as_attribute(cli["result"]))
    expect(details(calc)).to_have_count(4)
    expect(details(calc).last).to_contain_text("18.5.3")
    # Must not happen: Prize cards asked without a game in progress, or the single-game section cited.
    expect(page.get_by_label(words_["prizes_a"], exact=True)).to_be_hidden()
    expect(verdict_region(calc)).not_to_contain_text("22.5.1")

    games_b.fill("2")  # two games won: the match is already decided
    expect(field_error(calc, "games_b")).to_be_visible()
    expect(calc).to_have_attribute("data-result", "null")


@pytest.mark.parametrize(("lang", "path", "instance"),  # one language an instance (conftest: "Languages")
                         [("en", "pokemon/", ID), ("fr", "clock/", f"{ID}-bo1"), ("it", "clock/", f"{ID}-bo3")])
def test_the_late_questions_start_unanswered(page, site_url, lang, path, instance):
    """Issue 51, item 1: criterion 1 decides before any other, so nothing answers it for the judge, on
    the rule page and in the clock's procedures: no choice made, a neutral note at each question until
    both are answered, no verdict; then the verdict of the answers given."""
    page.goto(f"{site_url}/{PREFIX[lang]}{path}")
    calc = page.locator(f"#calc-{instance}")
    expect_ready(calc)
    late = calc.locator('[data-field^="late_"] input[type=radio]')
    expect(late).to_have_count(4)
    for radio in late.all():
        expect(radio).not_to_be_checked()
    fmt = "bo1" if instance != f"{ID}-bo3" else "bo3"
    if fmt == "bo3":
        calc.get_by_label(words(lang)["games_a"], exact=True).fill("1")
        calc.get_by_label(words(lang)["games_b"], exact=True).fill("0")
        given = {"format": fmt, "games_a": "1", "games_b": "0"}
    else:
        calc.get_by_label(words(lang)["prizes_a"], exact=True).fill("4")
        calc.get_by_label(words(lang)["prizes_b"], exact=True).fill("2")
        given = {"format": fmt, "prizes_a": "4", "prizes_b": "2"}
    unanswered = evaluate(ID, given, lang)
    assert [(e["field"], e["code"]) for e in unanswered["errors"]] == [("late_a", "required"), ("late_b", "required")]
    notes = calc.locator('[data-field^="late_"] .calc-error')
    expect(notes).to_have_text([e["message"] for e in unanswered["errors"]])
    for note in notes.all():
        expect(note).to_have_class("calc-error calc-needed")
    expect(summary(calc)).to_have_text("")
    answer_late(calc, lang)
    expect(summary(calc)).to_have_text(evaluate(ID, {**given, **NOT_LATE}, lang)["summary"])
