"""The venue kit's build-time HTML: rule numbers from rules_core, words from the catalogs, markers
that fail the build when unknown; and the clock's rules in rules_core."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitebuild.words import words
from calculators.i18n import LANGUAGES, Later
from sitebuild.render import MarkerError
from sitebuild.contract import page_data
from sitebuild.venue import expand_venue_markers, render_blitz_timer, render_clock
from rules_core import clock, naruto
from rules_core.errors import RuleError
from rules_core.players import Player
from calculators.players import player
from tests.unit.test_render import tags

STATIC = Path(__file__).resolve().parents[2] / "web"


def attrs_of(html: str, cls: str) -> dict[str, str | None]:
    return next(a for tag, a in tags(html) if (a.get("class") or "").split()[:1] == [cls])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_blitz_timer_carries_the_rules_numbers_and_words(lang):
    html = render_blitz_timer(lang)
    data = page_data(html, lang)
    assert data["limits"]["blitz.seconds"] == naruto.BLITZ_ACTION_SECONDS
    assert data["limits"]["blitz.warnings_lose"] == naruto.BLITZ_WARNINGS_TO_LOSE
    for p in Player:  # words naming a player: that player's label already in them, the count left to fill
        lost = data["words"]["blitz.lost"][p.value]
        assert lost == words(lang)("blitz.lost", name=player(words(lang), p), count=Later("count"))
        assert "{count}" in lost and "{name" not in lost
    assert 'href="/' + ("" if lang == "en" else f"{lang}/") + 'naruto/#naruto-blitz-4"' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_clock_offers_the_games_and_fixes_only_the_blitz_length(lang):
    html = render_clock(lang)
    radios = [a for tag, a in tags(html) if tag == "input" and a.get("name") == "game"]
    assert [r["value"] for r in radios] == [g.value for g in clock.Game]
    fixed = {r["value"]: r.get("data-fixed") for r in radios}
    assert fixed == {"naruto-standard": None, "naruto-blitz": str(naruto.BLITZ_GAME_MINUTES),
                     "pokemon-bo1": None, "pokemon-bo3": None}
    minutes = next(a for tag, a in tags(html) if tag == "input" and a.get("name") == "minutes")
    assert minutes.get("value") is None  # no invented default length
    assert attrs_of(html, "clock")["data-clock-state"] == "idle"


def test_scripts_hold_no_rule_number():
    """The blitz numbers reach the scripts as data attributes only."""
    for name in ("venue/clock.js", "venue/blitz.js"):
        code = re.sub(r"//.*", "", (STATIC / name).read_text(encoding="utf-8"))
        for number in {naruto.BLITZ_GAME_MINUTES, naruto.BLITZ_ACTION_SECONDS}:
            assert not re.search(rf"(?<![\w.]){number}(?![\w.])", code), f"{name} holds {number}"


def test_unknown_or_repeated_venue_marker_fails_the_build():
    with pytest.raises(MarkerError, match="unknown venue marker"):
        expand_venue_markers("<!-- venue:stopwatch -->", "en")
    with pytest.raises(MarkerError, match="twice"):
        expand_venue_markers("<!-- venue:clock -->\n<!-- venue:clock -->", "en")


def test_round_length_is_the_rules_for_blitz_and_the_organisers_otherwise():
    assert clock.round_minutes("naruto-blitz", 45) == naruto.BLITZ_GAME_MINUTES
    assert clock.round_minutes("pokemon-bo3", 50) == 50
    with pytest.raises(RuleError) as err:
        clock.round_minutes("naruto-standard", None)
    assert (err.value.field, err.value.code) == ("minutes", "required")
    with pytest.raises(RuleError):
        clock.round_minutes("pokemon-bo1", clock.MAX_ROUND_MINUTES + 1)


#: The word for a match's format (a game's choices differ by it: standard or blitz, one game or best of three).
FORMAT = {"en": "format", "fr": "format", "it": "formato"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_clock_asks_for_the_game_and_its_format(lang):
    """The choices are formats of one game as much as games ("Naruto CCG (blitz)", "Pokémon TCG (best of
    three)"): the legend and the idle line say "game and format", as in French and Italian."""
    games = {g.value.split("-")[0] for g in clock.Game}
    assert len(games) < len(clock.Game)  # a game offered in several formats
    t = words(lang)
    assert FORMAT[lang] in t("clock.game.label").lower() and FORMAT[lang] in t("clock.state.idle").lower()
