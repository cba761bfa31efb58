"""pokemon-time-limit end to end in fr, it and en: the form built at build time, Python in a worker, the verdict."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from calculators import evaluate

ID = "pokemon-time-limit"
PAGES = {"en": "pokemon/", "fr": "fr/pokemon/", "it": "it/pokemon/"}
# Labels and legends, as the catalogs word them.
WORDS = {
    "en": {"format": "Match format", "bo3": "Best of three games", "prizes_a": "Prize cards left to player A",
           "prizes_b": "Prize cards left to player B", "games_a": "Completed games won by player A",
           "games_b": "Completed games won by player B", "in_progress": "Is an unfinished game in progress?",
           "no": "No", "winner": "Player B wins the match", "sudden": "Sudden Death"},
    "fr": {"format": "Format de la partie", "bo3": "Au meilleur des trois manches",
           "prizes_a": "Cartes Récompense restantes du joueur A", "prizes_b": "Cartes Récompense restantes du joueur B",
           "games_a": "Manches terminées gagnées par le joueur A", "games_b": "Manches terminées gagnées par le joueur B",
           "in_progress": "Une manche inachevée est-elle en cours ?", "no": "Non",
           "winner": "Joueur B gagne la partie", "sudden": "Mort subite"},
    "it": {"format": "Formato dell'incontro", "bo3": "Al meglio delle tre partite",
           "prizes_a": "Carte Premio rimaste al giocatore A", "prizes_b": "Carte Premio rimaste al giocatore B",
           "games_a": "Partite completate vinte dal giocatore A", "games_b": "Partite completate vinte dal giocatore B",
           "in_progress": "C'è una partita incompleta in corso?", "no": "No",
           "winner": "Giocatore B vince l'incontro", "sudden": "Partita Secca"},
}


def as_attribute(result) -> str:
    return json.dumps(result, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_single_game_decided_by_prize_cards(open_calc, page, lang):
    words = WORDS[lang]
    calc = open_calc(PAGES[lang], ID)
    page.get_by_label(words["prizes_a"], exact=True).fill("4")
    # A single game does not use games won nor "game in progress": once evaluated, the form does not show them.
    expect(page.get_by_label(words["games_a"], exact=True)).to_be_hidden()
    expect(calc.get_by_role("group", name=words["in_progress"])).to_be_hidden()
    page.get_by_label(words["prizes_b"], exact=True).fill("2")
    summary = calc.locator(".calc-summary")
    expect(summary).to_contain_text(words["winner"])
    expect(summary).to_contain_text("2")
    cli = evaluate(ID, {"format": "bo1", "prizes_a": "4", "prizes_b": "2"}, lang)
    expect(calc).to_have_attribute("data-result", as_attribute(cli["result"]))
    expect(calc.locator(".calc-details li")).to_have_text(cli["details"])
    # Must not happen: an error next to the verdict, or Sudden Death being mentioned.
    expect(calc.locator(".calc-error:visible")).to_have_count(0)
    expect(summary).not_to_contain_text(words["sudden"])

    page.get_by_label(words["prizes_b"], exact=True).fill("0")  # 0 means that game is already won
    error = calc.locator('[data-field="prizes_b"] .calc-error')
    expect(error).to_have_text(evaluate(ID, {"prizes_a": "4", "prizes_b": "0"}, lang)["errors"][0]["message"])
    expect(calc).to_have_attribute("data-result", "null")
    expect(summary).to_have_text("")


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_best_of_three_goes_to_sudden_death(open_calc, page, lang):
    words = WORDS[lang]
    calc = open_calc(PAGES[lang], ID)
    calc.get_by_role("group", name=words["format"]).get_by_label(words["bo3"], exact=True).check()
    games_a = page.get_by_label(words["games_a"], exact=True)
    expect(games_a).to_be_visible()
    games_a.fill("1")
    page.get_by_label(words["games_b"], exact=True).fill("1")
    calc.get_by_role("group", name=words["in_progress"]).get_by_label(words["no"], exact=True).check()
    summary = calc.locator(".calc-summary")
    expect(summary).to_contain_text(words["sudden"])
    expect(summary).to_contain_text("18.5.3")
    cli = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "no"}, lang)
    assert cli["result"]["sudden_death"] is True and cli["result"]["winner"] is None
    expect(calc).to_have_attribute("data-result", as_attribute(cli["result"]))
    expect(calc.locator(".calc-details li")).to_have_count(4)
    expect(calc.locator(".calc-details li").last).to_contain_text("18.5.3")
    # Must not happen: Prize cards asked without a game in progress, or the single-game section cited.
    expect(page.get_by_label(words["prizes_a"], exact=True)).to_be_hidden()
    expect(calc.locator(".calc-verdict")).not_to_contain_text("22.5.1")

    page.get_by_label(words["games_b"], exact=True).fill("2")  # two games won: the match is already decided
    expect(calc.locator('[data-field="games_b"] .calc-error')).to_be_visible()
    expect(calc).to_have_attribute("data-result", "null")



@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_late_question_follows_the_format(page, site_url, lang):
    """The late/absent question states the chosen format's condition exactly, even before Python starts."""
    from calculators.i18n import Translator

    t = Translator(lang)
    page.route("**/calc/worker.js", lambda route: None)  # no engine: presentation only
    page.goto(f"{site_url}/{PAGES[lang]}")
    calc = page.locator(f"#calc-{ID}")
    bo1, bo3 = (t(f"{ID}.late_a.label.{fmt}") for fmt in ("bo1", "bo3"))
    expect(calc.get_by_role("group", name=bo1, exact=True)).to_be_visible()
    expect(calc.get_by_role("group", name=bo3, exact=True)).to_have_count(0)
    calc.get_by_role("group", name=WORDS[lang]["format"]).get_by_label(WORDS[lang]["bo3"], exact=True).check()
    expect(calc.get_by_role("group", name=bo3, exact=True)).to_be_visible()
    expect(calc.get_by_role("group", name=bo1, exact=True)).to_have_count(0)
    expect(calc.get_by_role("group", name=t(f"{ID}.late_b.label.bo3"), exact=True)).to_be_visible()
