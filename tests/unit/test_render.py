"""Build-time forms: every marker renders in every language; a bad marker fails the build."""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from calculators import CALCULATORS
from calculators.i18n import LANGUAGES, Translator
from rules_core import judge_tower
from sitebuild.render import MarkerError, expand_markers, parse_marker

ROOT = Path(__file__).resolve().parents[2]


class Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Collect()
    parser.feed(html)
    return parser.tags


def markers_in_docs() -> set[str]:
    found = set()
    for md in (ROOT / "docs").rglob("*.md"):
        found |= {m.group(1).strip() for m in re.finditer(r"<!--\s*calc:(.*?)-->", md.read_text(encoding="utf-8"))}
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_each_calculator_renders_a_labelled_form(calc_id, lang):
    raw = expand_markers(f"<p>before</p>\n<!-- calc:{calc_id} -->\n<p>after</p>", lang)
    found = tags(raw)
    html = unescape(raw)
    root = next(attrs for tag, attrs in found if attrs.get("data-calc") == calc_id)
    assert root["id"] == f"calc-{calc_id}" and root["data-state"] == "loading" and root["data-lang"] == lang
    t = Translator(lang)
    assert t("ui.loading") in html and t(f"{calc_id}.title") in html
    ids = {attrs.get("id") for _, attrs in found}
    spec = CALCULATORS[calc_id]
    for field in spec.fields:
        control_id = f"calc-{calc_id}-{field.name}"
        assert control_id in ids, control_id
        by = spec.field(field.label_by).default if field.label_by else None
        assert t(f"{calc_id}.{field.name}.label" + (f".{by}" if by else "")) in html
        if field.kind == "choice":
            radios = [a for tag, a in found if tag == "input" and a.get("name") == field.name]
            assert sorted(a["value"] for a in radios) == sorted(field.choices)
        else:
            assert any(tag == "label" and attrs.get("for") == control_id for tag, attrs in found), control_id
        if field.kind == "integer" and (field.minimum is None or field.minimum >= 0):
            control = next(a for _, a in found if a.get("id") == control_id)
            assert control.get("inputmode") == "numeric"
    assert "<!--" not in raw
    hidden_at_start = spec.hidden({f.name: f.default for f in spec.fields}) if spec.hidden else set()
    for field in spec.fields:
        box = next(a for _, a in found if a.get("data-field") == field.name)
        assert ("hidden" in box) == (field.name in hidden_at_start), field.name


def test_markers_used_in_docs_all_render():
    for marker in markers_in_docs():
        spec, presets = parse_marker(marker)
        for lang in LANGUAGES:
            assert f'data-calc="{spec.id}"' in expand_markers(f"<!-- calc:{marker} -->", lang)


def test_same_structure_in_every_language():
    def shape(lang):
        return [(tag, attrs.get("id"), attrs.get("name")) for tag, attrs in tags(expand_markers("<!-- calc:naruto-rounds -->", lang))]
    assert shape("en") == shape("fr") == shape("it")


@pytest.mark.parametrize("marker", [
    "<!-- calc:naruto-round -->",
    "<!-- calc: -->",
    "<!-- calc:NARUTO-ROUNDS -->",
    "<!-- calc:naruto-rounds players -->",
    "<!-- calc:naruto-rounds colour=red -->",
])
def test_unknown_or_malformed_marker_is_an_error(marker):
    with pytest.raises(MarkerError):
        expand_markers(marker, "en")


def test_same_calculator_twice_is_an_error():
    with pytest.raises(MarkerError):
        expand_markers("<!-- calc:naruto-rounds -->\n<!-- calc:naruto-rounds -->", "en")


def test_user_facing_text_is_escaped():
    html = "".join(expand_markers(f"<!-- calc:{calc_id} -->", "fr") for calc_id in CALCULATORS)
    # apostrophes of French messages end up in attributes: they must be escaped, not break the markup
    assert "&#x27;" in html and not re.search(r"<[^>]*'[^>]*>", html)


def test_build_fails_on_an_unknown_marker(tmp_path):
    """The real MkDocs build, with the hook, refuses a page with an unknown marker."""
    docs = tmp_path / "docs"
    for lang in LANGUAGES:
        (docs / lang).mkdir(parents=True)
        (docs / lang / "index.md").write_text(f"# Home ({lang}) {{ #home }}\n\n<!-- calc:not-a-calculator -->\n",
                                             encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("docs_dir: docs", f"docs_dir: {docs}").replace(
        "sitebuild/mkdocs_hook.py", str(ROOT / "sitebuild" / "mkdocs_hook.py")).replace(
        "custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
    config = re.sub(r"(?ms)^nav:.*", "", config) + f"\nsite_dir: {tmp_path / 'site'}\n"
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(tmp_path / "mkdocs.yml")],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode != 0
    assert "unknown calculator marker <!-- calc:not-a-calculator -->" in done.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_label_that_depends_on_a_choice(lang):
    """pokemon-time-limit asks the late question in the exact words of the chosen format."""
    t = Translator(lang)
    found = tags(expand_markers("<!-- calc:pokemon-time-limit -->", lang))
    variants = [a for tag, a in found if a.get("data-when-field") == "format"]
    assert sorted((a["data-when-value"], "hidden" in a) for a in variants) == [
        ("bo1", False), ("bo1", False), ("bo3", True), ("bo3", True)]  # late_a and late_b, bo1 by default
    # A preset format (the round clock's) has no radio to switch the variants by: its own, as plain text.
    for fmt, other in (("bo1", "bo3"), ("bo3", "bo1")):
        marker = f"<!-- calc:pokemon-time-limit format={fmt} -->"
        html = unescape(expand_markers(marker, lang))
        for player in ("a", "b"):
            assert t(f"pokemon-time-limit.late_{player}.label.{fmt}") in html
            assert t(f"pokemon-time-limit.late_{player}.label.{other}") not in html
        assert not [a for tag, a in tags(expand_markers(marker, lang)) if "data-when-field" in a]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_shame_tracker_is_written_by_the_build(lang):
    """Its first rows (one per player a game starts with at least) and the row it copies, in the
    page's words: the page lays it out as it opens (web/widgets/shame-tracker.js only wires it)."""
    spec = CALCULATORS["judge-tower-shame"]
    html = expand_markers("<!-- calc:judge-tower-shame -->", lang)
    rows_html = html.split('<ol class="shame-rows">', 1)[1].split("</ol>", 1)[0]
    template = html.split('<template class="shame-row-template">', 1)[1].split("</template>", 1)[0]
    t = Translator(lang)
    rows = [attrs for tag, attrs in tags(rows_html) if tag == "li"]
    assert [row["aria-label"] for row in rows] == [
        t("judge-tower-shame.ui.player", n=n) for n in range(1, judge_tower.MIN_PLAYERS + 1)]
    assert template.count('class="shame-row"') == 1
    names = [attrs for tag, attrs in tags(html) if tag == "input" and attrs.get("class") == "shame-name"]
    assert {n["maxlength"] for n in names} == {str(spec.widget_rules["max_name"])}
    assert [n["id"] for n in names[1:]] == [f"calc-judge-tower-shame-player-{n}" for n in range(1, judge_tower.MIN_PLAYERS + 1)]
    assert unescape(t("judge-tower-shame.ui.add")) in unescape(html)


def test_a_page_links_the_stylesheets_of_its_widgets():
    """Linked from the head: a widget adding its own arrived after the first layout (restyling the page)."""
    from sitebuild.templates import TemplateData

    html = expand_markers("<!-- calc:judge-tower-shame -->\n<!-- calc:naruto-rounds -->", "en")
    assert TemplateData.widget_stylesheets(html) == ["calc/widgets/records-chart.css", "calc/widgets/shame-tracker.css"]
    assert TemplateData.widget_stylesheets(expand_markers("<!-- calc:judge-tower-shame -->", "en")) == ["calc/widgets/shame-tracker.css"]
    widgets = {spec.widget for spec in CALCULATORS.values() if spec.widget}
    for widget in widgets:  # every widget with a stylesheet gets it
        css = ROOT / "web" / "widgets" / f"{widget}.css"
        assert TemplateData.widget_stylesheets(f' data-widget="{widget}"') == ([f"calc/widgets/{widget}.css"] if css.is_file() else [])
    for script in (ROOT / "web" / "widgets").glob("*.js"):  # and no widget adds one itself
        assert "stylesheet" not in script.read_text(encoding="utf-8"), script.name


@pytest.mark.parametrize("calc_id", [c for c, spec in CALCULATORS.items() if spec.hidden_by])
def test_hidden_by_names_all_that_hidden_reads(calc_id):
    """The page hides and leaves unsent what the build wrote from ``hidden`` over ``hidden_by``'s choices alone
    (issue 62 item 12): true only if ``hidden`` reads nothing else."""
    import json
    import random

    from sitebuild.render import hidden_by_choices

    spec = CALCULATORS[calc_id]
    assert all(spec.field(name).kind == "choice" for name in spec.hidden_by)
    table = json.loads(hidden_by_choices(spec))
    rng = random.Random(calc_id)
    for _ in range(500):
        raw = {f.name: rng.choice(["", "0", "1", "2", "x", *f.choices]) for f in spec.fields}
        key = "|".join(raw[name] if raw[name] in spec.field(name).choices else "" for name in spec.hidden_by)
        if all(raw[name] in ("", *spec.field(name).choices) for name in spec.hidden_by):
            assert sorted(spec.hidden(raw)) == table["when"][key], raw


MARKED = [(calc_id, field) for calc_id, spec in sorted(CALCULATORS.items()) for field in spec.fields if field.marked_optional]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("calc_id, field", MARKED, ids=[f"{c}.{f.name}" for c, f in MARKED])
def test_an_error_names_a_field_without_its_optional_marker(calc_id, field, lang):
    """«Turni svizzeri previsti (facoltativo): 2 è meno del minimo»: the form says the field may be left
    empty; its error names the bare label, the form's label carries the marker apart (its own span)."""
    from calculators import evaluate, field_label

    t = Translator(lang)
    bad = "x" if field.kind == "integer" else "x" * (field.max_length + 1)
    verdict = evaluate(calc_id, {**CALCULATORS[calc_id].example, field.name: bad}, lang)
    [error] = [e for e in verdict["errors"] if e["field"] == field.name]
    label = field_label(t, calc_id, field.name)
    assert error["message"].startswith(label) and t("field.optional") not in error["message"]
    html = unescape(expand_markers(f"<!-- calc:{calc_id} -->", lang))
    assert f'{label} <span class="field-optional">{t("field.optional")}</span></label>' in html


def test_optional_fields_are_marked():
    """The player names and the planned rounds may be left empty (the form says so)."""
    assert {(c, f.name) for c, f in MARKED} >= {("naruto-rounds", "rounds"), ("naruto-end-of-time", "name_a"),
                                                ("pokemon-time-limit", "name_b")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_label_carries_the_optional_marker_in_its_words(lang):
    """A label's words are what an error names (the clock's fields in the browser too): the marker is added
    by the form, never written into a label."""
    from sitebuild.words import words

    t = words(lang)
    marker = t("field.optional")
    labels = {key: text for key, text in t.templates("").items() if ".label" in key and marker in text}
    assert not labels
    from sitebuild.venue import render_clock

    clock = unescape(render_clock(lang))  # the round and the total: the clock's script names them without it
    for key in ("clock.round.label", "clock.rounds.label"):
        assert f'{t(key)} <span class="field-optional">{marker}</span></label>' in clock
