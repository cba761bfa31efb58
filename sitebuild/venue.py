"""Build-time HTML of the venue kit: the round clock and the blitz action timer.

A page asks for them with a marker on its own line, ``<!-- venue:clock -->`` or
``<!-- venue:blitz-timer -->`` (an unknown one fails the build, like calculator markers).
The HTML is complete without a script; ``web/venue/clock.js`` and ``web/venue/blitz.js`` bring it
to life. The words and limits they fill in themselves (rule numbers from ``rules_core``, templates
from the ``venue`` catalog) are in the page's data block (sitebuild/contract.py), so no script
holds a number or a word of its own.
"""

from __future__ import annotations

import re
from html import escape

from calculators.i18n import Translator, language_folder
from sitebuild.contract import ADD_STEP_MINUTES
from sitebuild.render import MarkerError, _attrs, optional_marker
from sitebuild.words import words
from calculators.players import player
from rules_core import clock, naruto
from rules_core.players import Player

ANY_VENUE_MARKER = re.compile(r"<!--\s*venue:(.*?)-->", re.S)


def rule_href(lang: str, page: str, rule_id: str) -> str:
    """A site-absolute link to a rule in ``lang``; the hook makes it relative to the page."""
    prefix = language_folder(lang)
    return f"/{prefix}{page}/#{rule_id}"


def _number_field(t: Translator, uid: str, name: str, label_key: str, hint: str = "", optional: bool = False) -> str:
    fid = f"{uid}-{name}"
    hint_html = f'<p class="calc-hint" id="{fid}-hint">{escape(hint)}</p>' if hint else ""
    control = _attrs(type="text", id=fid, name=name, inputmode="numeric", autocomplete="off",
                     spellcheck="false", aria_describedby=f"{fid}-hint" if hint else None)
    return (
        f'<div class="calc-field" data-field="{name}">'
        f'<label for="{fid}">{escape(t(label_key))}{optional_marker(t) if optional else ""}</label>{hint_html}<input {control}>'
        f'<p class="calc-error" id="{fid}-error" role="alert" hidden></p></div>'
    )


def _button(text: str, action: str, *, primary: bool = False, hidden: bool = False, **attrs: object) -> str:
    cls = "md-button md-button--primary" if primary else "md-button"
    return f"<button {_attrs(type='button', class_=cls, data_action=action, hidden=hidden, **attrs)}>{escape(text)}</button>"


def render_clock(lang: str) -> str:
    """The round clock: what is played, the round length, the face, its controls, table extensions."""
    t = words(lang)
    uid = "round-clock"
    games = "".join(
        f'<label class="calc-choice"><input {_attrs(type="radio", name="game", value=g.value, checked=i == 0, data_fixed=clock.fixed_minutes(g))}>'
        f"<span>{escape(t(f'clock.game.{g.value}'))}</span></label>"
        for i, g in enumerate(clock.Game)
    )
    fixed = escape(t("clock.minutes.fixed", minutes=naruto.BLITZ_GAME_MINUTES))
    data = _attrs(class_="clock", id=uid, role="region", aria_labelledby=f"{uid}-title", data_lang=lang,
                  data_clock_state="idle", data_clock_end="")
    return (
        f"<div {data}>"
        f'<p class="calc-title" id="{uid}-title">{escape(t("clock.title"))}</p>'
        f'<div role="alert"><ul class="clock-link-errors calc-error" hidden></ul></div>'
        f'<div class="clock-room-controls" hidden>'
        + _button(t("clock.room.fullscreen"), "fullscreen", hidden=True)
        + _button(t("ui.qr.button"), "qr")
        + _button(t("clock.room.leave"), "leave")
        + "</div>"
        f'<div class="clock-heading"><p class="clock-game-name" hidden></p>'
        f'<p class="clock-round" hidden></p></div>'
        f'<form class="clock-setup" novalidate>'
        f'<fieldset class="calc-field" data-field="game"><legend>{escape(t("clock.game.label"))}</legend>'
        f'<div class="calc-choices">{games}</div>'
        f'<p class="calc-error" id="{uid}-game-error" role="alert" hidden></p></fieldset>'
        + _number_field(t, uid, "minutes", "clock.minutes.label", t("clock.minutes.hint"))
        + f'<div class="clock-round-fields">'
        + _number_field(t, uid, "round", "clock.round.label", t("clock.round.hint"), optional=True)
        + _number_field(t, uid, "rounds", "clock.rounds.label", optional=True)
        + "</div>"
        + f'<p class="clock-fixed" hidden><a href="{rule_href(lang, "naruto", "naruto-blitz-2")}">{fixed}</a></p>'
        f"</form>"
        f'<div class="clock-face"><p class="clock-digits" role="timer" aria-atomic="true">--:--</p>'
        f'<p class="clock-banner" hidden>{escape(t("clock.time"))}</p>'
        f'<p class="clock-procedure-title" hidden></p></div>'
        f'<p class="clock-status" role="status">{escape(t("clock.state.idle"))}</p>'
        f'<p class="clock-wake" hidden></p>'
        f'<div class="clock-buttons">'
        + _button(t("clock.start"), "start", primary=True)
        + _button(t("clock.pause"), "pause", hidden=True)
        + _button(t("clock.resume"), "resume", primary=True, hidden=True)
        + _button(t("clock.add", minutes=ADD_STEP_MINUTES), "add", hidden=True)
        + _button(t("clock.reset"), "reset", hidden=True)
        + "</div>"
        f'<p class="clock-procedure-link" hidden><a href="#">{escape(t("clock.procedure"))}</a></p>'
        f'<div class="clock-extensions" role="group" aria-labelledby="{uid}-ext-title">'
        f'<p class="calc-title" id="{uid}-ext-title">{escape(t("clock.ext.title"))}</p>'
        f'<form class="clock-ext-form" novalidate><p class="calc-hint">{escape(t("clock.ext.hint"))}</p>'
        + _number_field(t, uid, "table", "clock.ext.table.label")
        + _number_field(t, uid, "extra", "clock.ext.minutes.label")
        + f'<button type="submit" class="md-button">{escape(t("clock.ext.add"))}</button></form>'
        f'<ul class="clock-ext-list"></ul></div>'
        f'<div class="clock-share">'
        + _button(t("clock.copy"), "copy")
        + _button(t("ui.qr.button"), "qr")
        + _button(t("clock.room"), "room")
        + "</div></div>"
    )


def render_blitz_timer(lang: str) -> str:
    """The blitz action timer: one large button restarting the action count, warnings per player."""
    t = words(lang)
    uid = "blitz-timer"
    seconds = naruto.BLITZ_ACTION_SECONDS
    data = _attrs(class_="blitz-timer", id=uid, role="region", aria_labelledby=f"{uid}-title", data_lang=lang,
                  data_blitz_state="idle")
    players = "".join(
        f'<div {_attrs(class_="blitz-player", data_player=p.value, data_warnings="0")}>'
        f'<p class="blitz-warnings">{escape(t("blitz.count", name=player(t, p), count=0))}</p>'
        + _button(t("blitz.warn", name=player(t, p)), "warn")
        + _button(t("blitz.undo", name=player(t, p)), "undo", disabled=True)
        + "</div>"
        for p in Player
    )
    return (
        f"<div {data}>"
        f'<p class="calc-title" id="{uid}-title">{escape(t("blitz.title"))}</p>'
        f'<p class="calc-hint">{escape(t("blitz.hint", seconds=seconds))}</p>'
        f'<div role="alert"><ul class="blitz-link-errors calc-error" hidden></ul></div>'
        f'<button type="button" class="blitz-tap" data-action="tap">'
        f'<span class="blitz-tap-label">{escape(t("blitz.tap"))}</span>'
        f'<span class="blitz-count">{escape(t("blitz.left", seconds=seconds))}</span></button>'
        f'<p class="blitz-signal" role="status">{escape(t("blitz.idle"))}</p>'
        f'<div class="blitz-players">{players}</div>'
        f'<p class="blitz-lost" role="alert" hidden><span class="blitz-lost-text"></span> '
        f'<a href="{rule_href(lang, "naruto", "naruto-blitz-4")}">{escape(t("blitz.rule"))}</a></p>'
        f"</div>"
    )


RENDERERS = {"clock": render_clock, "blitz-timer": render_blitz_timer}


def expand_venue_markers(html: str, lang: str) -> str:
    """Replace every ``<!-- venue:NAME -->``; raise :class:`MarkerError` on an unknown or repeated one
    (each exists once per page: its element ids are fixed)."""
    seen: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        if name not in RENDERERS:
            raise MarkerError(f"unknown venue marker <!-- venue:{name} --> (known: {', '.join(sorted(RENDERERS))})")
        if name in seen:
            raise MarkerError(f"<!-- venue:{name} --> appears twice on one page")
        seen.add(name)
        return RENDERERS[name](lang)

    return ANY_VENUE_MARKER.sub(replace, html)
