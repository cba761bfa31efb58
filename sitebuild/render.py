"""Build-time HTML for calculators: a marker in a page becomes a real form.

A marker is an HTML comment on its own line: ``<!-- calc:ID -->``, optionally
with presets ``<!-- calc:ID field=value ... -->`` (a preset field is fixed and
not shown). The form is complete without any script: labelled fields, hints,
a status line saying the calculator is starting, an empty verdict region.
"""

from __future__ import annotations

import itertools
import json
import re
from html import escape

from calculators import field_label
from calculators.i18n import LANGUAGES, Translator, language_folder
from calculators.registry import CALCULATORS
from calculators.spec import Calculator, Field
from sitebuild.words import words
from rules_core import clock

#: Any calculator marker, well-formed or not (a malformed one must fail the build, not vanish).
ANY_MARKER = re.compile(r"<!--\s*calc:(.*?)-->", re.S)
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_PRESET = re.compile(r"([a-z_]+)=([A-Za-z0-9_-]+)")


class MarkerError(ValueError):
    """A calculator marker that names no calculator, or a bad preset."""


def parse_marker(body: str) -> tuple[Calculator, dict[str, str]]:
    """``"naruto-tiebreak mode=blitz"`` -> (spec, {"mode": "blitz"}); raise :class:`MarkerError`."""
    words = body.split()
    if not words or not _ID.fullmatch(words[0]) or words[0] not in CALCULATORS:
        raise MarkerError(f"unknown calculator marker <!-- calc:{body.strip()} --> (known: {', '.join(sorted(CALCULATORS))})")
    spec = CALCULATORS[words[0]]
    presets: dict[str, str] = {}
    for word in words[1:]:
        match = _PRESET.fullmatch(word)
        names = {f.name for f in spec.fields}
        if not match or match.group(1) not in names:
            raise MarkerError(f"bad preset {word!r} in marker for {spec.id} (fields: {', '.join(sorted(names))})")
        field = spec.field(match.group(1))
        if field.kind == "choice" and match.group(2) not in field.choices:
            raise MarkerError(f"preset {word!r} for {spec.id}: not one of {field.choices}")
        presets[match.group(1)] = match.group(2)
    return spec, presets


def instance_id(spec: Calculator, presets: dict[str, str]) -> str:
    """The DOM/URL id of one calculator on a page: ``calc-`` + its id, plus preset values.

    The prefix keeps it apart from the heading ids of the rules (``naruto-rounds``).
    """
    return "-".join(["calc", spec.id, *presets.values()])


def _attrs(**attrs: object) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        parts.append(name if value is True else f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(parts)


def optional_marker(t: Translator) -> str:
    """The "(optional)" after a label, apart in its own span: a script naming the field in an error
    leaves it out (``labelText`` in web/share.js), as :func:`calculators.field_label` does."""
    return f' <span class="field-optional">{escape(t("field.optional"))}</span>'


def _label_html(t: Translator, spec: Calculator, field: Field, start: dict[str, str], presets: dict[str, str]) -> str:
    """The label's text; with ``label_by``, one variant per choice of that field, the others hidden
    (hidden text is left out of the accessible name; calc.js switches them as the choice changes).
    A preset ``label_by`` field has no radio to switch them by: its variant alone, as plain text."""
    if not field.label_by:
        return escape(t(f"{spec.id}.{field.name}.label"))
    if field.label_by in presets:
        return escape(field_label(t, spec.id, field.name, presets))
    by = spec.field(field.label_by)
    return "".join(
        f'<span {_attrs(data_when_field=by.name, data_when_value=choice, hidden=choice != start[by.name])}>'
        f"{escape(t(f'{spec.id}.{field.name}.label.{choice}'))}</span>"
        for choice in by.choices
    )


def _field_html(t: Translator, spec: Calculator, uid: str, field: Field, start: dict[str, str],
                presets: dict[str, str], hidden: bool = False) -> str:
    fid = f"{uid}-{field.name}"
    label = _label_html(t, spec, field, start, presets) + (optional_marker(t) if field.marked_optional else "")
    hint_key = f"{spec.id}.{field.name}.hint"
    hint = f'<p class="calc-hint" id="{fid}-hint">{escape(t(hint_key))}</p>' if t.has(hint_key) else ""
    described = f"{fid}-hint" if hint else None
    error = f'<p class="calc-error" id="{fid}-error" role="alert" hidden></p>'
    if field.kind == "choice":
        options = "".join(
            f'<label class="calc-choice"><input {_attrs(type="radio", name=field.name, value=choice, checked=(choice == field.default))}>'
            f"<span>{escape(t(f'{spec.id}.{field.name}.{choice}'))}</span></label>"
            for choice in field.choices
        )
        return (
            f'<fieldset class="calc-field" data-field="{field.name}" id="{fid}" {_attrs(aria_describedby=described, hidden=hidden)}>'
            f"<legend>{label}</legend>{hint}<div class=\"calc-choices\">{options}</div>{error}</fieldset>"
        )
    common = dict(id=fid, name=field.name, aria_describedby=described, autocomplete="off", spellcheck="false")
    if field.multiline:
        control = f"<textarea {_attrs(rows=8, **common)}></textarea>"
    else:
        inputmode = field.inputmode or ("numeric" if field.kind == "integer" else None)
        control = f"<input {_attrs(type='text', inputmode=inputmode, value=field.default or None, **common)}>"
    # data-max-length: a shared link's longer value is refused before the page does any work with it.
    return (
        f'<div class="calc-field" data-field="{field.name}" data-max-length="{field.max_length}"'
        f'{" hidden" if hidden else ""}><label for="{fid}">{label}</label>{hint}{control}{error}</div>'
    )


def _widget_words(t: Translator, spec: Calculator):
    """The widget's own words (``<calculator>.ui.<name>``), escaped for HTML."""

    def ui(name: str, **params) -> str:
        return escape(t(f"{spec.id}.ui.{name}", **params))

    return ui


def _shame_row_html(t: Translator, spec: Calculator, uid: str, n: int) -> str:
    """Row ``n`` of the shame tracker, as a new player starts: no name, counter 0 (its − disabled)."""
    ui = _widget_words(t, spec)
    pid = f"{uid}-player-{n}"
    return (
        f'<li class="shame-row" aria-label="{ui("player", n=n)}">'
        f'<div class="shame-head"><label class="shame-name-label" for="{pid}">{ui("player", n=n)}</label>'
        f'<span class="shame-out-badge" hidden>{ui("out")}</span></div>'
        f'<input {_attrs(class_="shame-name", id=pid, type="text", maxlength=spec.widget_rules["max_name"], autocomplete="off", spellcheck="false", placeholder=t(f"{spec.id}.ui.name"))}>'
        f'<label class="shame-first"><input type="checkbox"><span>{ui("first")}</span></label>'
        f'<div class="shame-counter"><button type="button" class="shame-minus" aria-label="{ui("minus")}" disabled>−</button>'
        f'<output class="shame-value" aria-live="polite">0</output>'
        f'<button type="button" class="shame-plus" aria-label="{ui("plus")}">+</button></div>'
        f'<p class="shame-status"></p></li>'
    )


def _shame_tracker_html(t: Translator, spec: Calculator, uid: str) -> str:
    """The table-side tracker (web/widgets/shame-tracker.js wires it): its first rows, and the row
    it copies for each player added. Written here so that the page lays it out once, as it opens,
    instead of the script building it and the whole page being laid out again."""
    ui = _widget_words(t, spec)
    rows = "".join(_shame_row_html(t, spec, uid, n) for n in range(1, spec.widget_rules["min_players"] + 1))
    return (
        f'<section class="shame-tracker" aria-label="{ui("tracker")}">'
        f'<template class="shame-row-template">{_shame_row_html(t, spec, uid, 1)}</template>'
        f'<ol class="shame-rows">{rows}</ol>'
        f'<div class="shame-actions"><button type="button" class="shame-add md-button">{ui("add")}</button>'
        f'<button type="button" class="shame-remove md-button" disabled>{ui("remove")}</button></div>'
        # The bar: the verdict's facts first, then its summary; a tap shows all of it (shame-tracker.js).
        f'<p class="shame-bar" tabindex="0" role="button" aria-expanded="false">'
        f'<strong class="shame-facts"></strong> <span class="shame-summary"></span></p></section>'
    )


#: Widgets whose markup the build writes (the others are built by their script from verdicts).
def _records_chart_html(t: Translator, spec: Calculator, uid: str) -> str:
    """The planner's link to a round clock for the first round (web/widgets/records-chart.js adds the
    organiser's total and shows it: the rules give a minimum of rounds, never how many are played)."""
    href = f"/{language_folder(t.lang)}clock/?clock.game={clock.Game.NARUTO_STANDARD.value}&amp;clock.round=1"
    return f'<p class="rounds-clock" hidden><a href="{href}"></a></p>'


WIDGET_HTML = {"shame-tracker": _shame_tracker_html, "records-chart": _records_chart_html}


def hidden_by_choices(spec: Calculator) -> str | None:
    """``data-hidden-by``: for a calculator whose ``hidden`` reads only choices (``hidden_by``), the
    fields each combination of answers hides (``when["bo1|"]``, an answer not given being ""), written
    by ``hidden`` itself: the page then sends only what it shows, before any verdict."""
    if not spec.hidden_by:
        return None
    combos = itertools.product(*(("", *spec.field(name).choices) for name in spec.hidden_by))
    when = {"|".join(combo): sorted(spec.hidden(dict(zip(spec.hidden_by, combo)))) for combo in combos}
    return json.dumps({"by": list(spec.hidden_by), "when": when}, sort_keys=True, separators=(",", ":"))


def render_calculator(spec: Calculator, lang: str, presets: dict[str, str] | None = None) -> str:
    """The calculator's HTML in ``lang``: form, status line, verdict region."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    presets = presets or {}
    t = words(lang)
    uid = instance_id(spec, presets)
    # Fields the starting values make irrelevant are hidden from the start, not after a first verdict.
    start = {f.name: presets.get(f.name, f.default) for f in spec.fields}
    hidden = spec.hidden(start) if spec.hidden else set()
    fields = "".join(
        f'<input type="hidden" name="{f.name}" value="{escape(presets[f.name])}">' if f.name in presets
        else _field_html(t, spec, uid, f, start, presets, f.name in hidden)
        for f in spec.fields
    )
    # Two instances on one page differ by a preset: its choice is named in the title, so that each
    # region has its own accessible name ("… — Blitz").
    preset_words = [t(key) for key in (f"{spec.id}.{name}.{value}" for name, value in presets.items()) if t.has(key)]
    title = " \u2014 ".join([t(f"{spec.id}.title"), *preset_words])
    widget_html = WIDGET_HTML[spec.widget](t, spec, uid) if spec.widget in WIDGET_HTML else ""
    data = _attrs(
        class_="calc",
        id=uid,
        role="region",
        aria_labelledby=f"{uid}-title",
        data_calc=spec.id,
        data_lang=lang,
        data_state="loading",
        data_presets=json.dumps(presets, sort_keys=True) if presets else None,
        data_widget=spec.widget,
        data_hidden_by=hidden_by_choices(spec),
    )
    return (
        f"<div {data}>"
        f'<p class="calc-title" id="{uid}-title">{escape(title)}</p>'
        f"{widget_html}"
        f'<form class="calc-form" novalidate>{fields}</form>'
        # The verdict right under the last field (a phone's keyboard hides what is further down),
        # the engine's status and the share controls after it.
        f'<div class="calc-verdict" aria-live="polite" aria-atomic="true">'
        f'<p class="calc-summary"></p><ul class="calc-details"></ul></div>'
        f'<p class="calc-status" role="status">{escape(t("ui.loading"))}</p>'
        f'<button type="button" class="calc-retry md-button" hidden>{escape(t("ui.retry"))}</button>'
        f'<button type="button" class="calc-share md-button">'
        f'{escape(t("ui.copy_calc_link"))}</button>'
        f'<button type="button" class="calc-qr md-button">{escape(t("ui.qr.button"))}</button>'
        f"</div>"
    )


def expand_markers(html: str, lang: str) -> str:
    """Replace every calculator marker in ``html``; raise :class:`MarkerError` on an unknown one."""

    seen: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        spec, presets = parse_marker(match.group(1))
        uid = instance_id(spec, presets)
        if uid in seen:
            raise MarkerError(f"calculator {uid} appears twice on one page; give one of them a preset")
        seen.add(uid)
        return render_calculator(spec, lang, presets)

    return ANY_MARKER.sub(replace, html)
