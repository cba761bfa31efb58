import { addStylesheet } from "./style.js";

// Live counters for naruto-reserve: deck n/40, Réserve n/10, non-Platoon Ninja n/25 (deck) and n/30
// (deck + Réserve), read from the verdict's `counts`; "–" while the lists cannot be read.
// The counters stay in view (position: sticky) while a long list is pasted or scrolled on a phone.
// Its words come from the catalog through the element's data-ui-* attributes (keys naruto-reserve.ui.*).
// [count key, limit, whether the count must equal the limit (else: at most)]
const COUNTERS = [["deck", 40, true], ["reserve", 10, true], ["deck_ninja", 25, false], ["total_ninja", 30, false]];
const WORD = { deck: "uiDeck", reserve: "uiReserve", deck_ninja: "uiDeckNinja", total_ninja: "uiTotalNinja" };

export function mount(el) {
  addStylesheet(new URL("reserve.css", import.meta.url));
  const box = document.createElement("dl");
  box.className = "reserve-counters";
  const values = {};
  for (const [key] of COUNTERS) {
    const item = document.createElement("div");
    item.className = "reserve-counter";
    item.dataset.counter = key;
    const term = document.createElement("dt");
    term.textContent = el.dataset[WORD[key]] || key;
    const value = document.createElement("dd");
    value.textContent = "–";
    item.append(term, value);
    box.append(item);
    values[key] = value;
  }
  el.querySelector("form").before(box);
  el.addEventListener("calc:verdict", ({ detail }) => {
    const counts = detail.ok && detail.result ? detail.result.counts : null;
    for (const [key, limit, exact] of COUNTERS) {
      const value = values[key];
      if (!counts) {
        value.textContent = "–";
        delete value.parentElement.dataset.over;
        continue;
      }
      const n = counts[key];
      value.textContent = `${n}/${limit}`;
      // The Réserve is optional: 0 is fine, otherwise exactly 10.
      const wrong = exact ? n !== limit && !(key === "reserve" && n === 0) : n > limit;
      if (wrong) value.parentElement.dataset.over = "true";
      else delete value.parentElement.dataset.over;
    }
  });
}
