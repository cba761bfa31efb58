"""Accessibility: axe-core on every page of every language, every calculator with the keyboard
alone, touch targets on a phone, and text at 200 % zoom."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS
from tests.browser.pages import all_pages, assert_axe_clean, expect_verdict, forms_to_type_into, open_ready

HOSTILE_NAME = '<b class="hostile">Kakashi</b>'
#: Valid input per calculator, typed with the keyboard (radios: the value to choose with the arrows).
#: A calculator missing here is still walked through with Tab.
SAMPLES = {
    "naruto-rounds": {"players": "24"},
    "naruto-reserve": {"deck": f"3 {HOSTILE_NAME} [ninja]"},
    "naruto-end-of-time": {"name_a": HOSTILE_NAME, "starter": "a", "active": "b"},
    "naruto-tiebreak": {"name_a": HOSTILE_NAME, "rewards_a": "3", "rewards_b": "2"},
    "judge-tower-hand": {"level": "2"},
    "judge-tower-shame": {"shame": f"{HOSTILE_NAME}: 3, Bob: 0"},
    "pokemon-time-limit": {"name_a": HOSTILE_NAME, "prizes_a": "3", "prizes_b": "4"},
}


#: Pixel 7, as Playwright's device list has it: 412 x 839 CSS px, 2.625 device pixels per CSS px.
PHONE = {"width": 412, "height": 839, "deviceScaleFactor": 2.625, "mobile": True, "screenWidth": 412, "screenHeight": 915}


def lay_out_as_phone(page, width: int) -> None:
    """Lay the open page out as a Pixel 7 (a mobile viewport, touch) ``width`` CSS px wide: what
    a new phone context would show, without starting another context (and its engine)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    cdp.send("Emulation.setDeviceMetricsOverride", {**PHONE, "width": width})
    assert page.evaluate("[innerWidth, matchMedia('(pointer: coarse)').matches]") == [width, True]


@pytest.mark.parametrize("path", all_pages())
def test_axe_touch_targets_and_200_percent_zoom(page, site_url, path):
    """One visit per page, three layouts (each follows the viewport): axe-core on the page as a
    desktop shows it; the page as a Pixel 7 shows it (412 CSS px, touch): every target at least
    44 px; and at 200 % zoom (206 CSS px): nothing may need horizontal scrolling (wide tables scroll
    inside their own box, as Material does)."""
    calculators = open_ready(page, site_url, path)
    assert_axe_clean(page)
    lay_out_as_phone(page, PHONE["width"])
    assert too_small(page, TARGETS) == []
    lay_out_as_phone(page, PHONE["width"] // 2)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{overflow} px of horizontal scrolling"
    for uid, _, _ in calculators:
        box = page.locator(f"#{uid}").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] // 2, (uid, box)
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('.md-typeset')).fontSize)") >= 12


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {inCalc: !!e.closest('.calc'), calc: e.closest('.calc')?.id, tag: e.tagName, name: e.name || '',
                type: e.type || '', value: e.value ?? '', checked: !!e.checked,
                outline: getComputedStyle(e).outlineStyle !== 'none' || getComputedStyle(e).boxShadow !== 'none'}; }""")


@pytest.mark.parametrize("path", list(forms_to_type_into()))
def test_every_calculator_works_with_the_keyboard_alone(page, site_url, path):
    open_ready(page, site_url, path)
    for uid, calc_id, lang in forms_to_type_into()[path]:
        calc = page.locator(f"#{uid}")
        sample = SAMPLES.get(calc_id, {})
        # Start where a user tabbing down the page arrives: just before the form.
        calc.locator(".calc-title").evaluate("el => { el.tabIndex = -1; el.focus(); }")
        visited: list[str] = []
        for _ in range(80):
            page.keyboard.press("Tab")
            now = focused(page)
            if now["calc"] != uid:
                break
            assert now["outline"], f"{uid}: no visible focus on {now}"
            key = now["name"] or now["tag"]
            if key in visited and now["type"] == "radio":
                continue
            visited.append(key)
            want = sample.get(now["name"])
            if want is None or now["type"] == "hidden":
                continue
            if now["type"] == "radio":
                if not now["checked"]:
                    page.keyboard.press("Space")
                for _ in range(len(CALCULATORS[calc_id].field(now["name"]).choices)):
                    if focused(page)["value"] == want:
                        break
                    page.keyboard.press("ArrowRight")
                assert focused(page)["value"] == want and focused(page)["checked"]
            else:
                page.keyboard.press("ControlOrMeta+A")
                page.keyboard.type(want)
        else:
            pytest.fail(f"{uid}: focus never left the calculator")
        visible = calc.evaluate("""el => [...new Set([...el.querySelectorAll('form [name]')]
            .filter((c) => c.type !== 'hidden' && c.getClientRects().length).map((c) => c.name))]""")
        assert [k for k in visited if k in visible] == visible, f"{uid}: Tab reached {visited}, fields {visible}"
        assert "BUTTON" in visited  # the share button (and retry when shown) are reachable too
        if sample:
            verdict = expect_verdict(calc, calc_id, lang)
            assert verdict["ok"], verdict["errors"]
            if HOSTILE_NAME in "".join(sample.values()) and HOSTILE_NAME in " ".join([verdict["summary"], *verdict["details"]]):
                expect(calc.locator(".calc-verdict")).to_contain_text(HOSTILE_NAME)  # as text
        expect(page.locator(".hostile")).to_have_count(0)


def too_small(page, selector: str) -> list[str]:
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
        .map(([e, r]) => `${e.outerHTML.slice(0, 80)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`)""", selector)


TARGETS = ", ".join([
    ".calc input[type=text]", ".calc textarea", ".calc .calc-choice", ".calc button",
    ".md-typeset a.rule-link", ".md-typeset a.headerlink",
])
