// Live counters for naruto-reserve (deck, Réserve, non-Platoon Ninja in the deck and in both):
// "count/limit" from the verdict's `counts` and the limits the build wrote (the page's data block), marked
// when the verdict has that limit's violation (Python decides, an empty Réserve included);
// "–" while the lists cannot be read, and for a count that needs the deck while a Réserve is typed
// alone. The counters stay in view (position: sticky) while a long list is pasted or scrolled on a phone. Words: catalog keys naruto-reserve.ui.*.
import { limit, word } from "../shared/page-data.js";

// count -> [its word, its limit, the violation code saying the limit is not met]
const COUNTER = {
  deck: ["naruto-reserve.ui.deck", "naruto-reserve.deck", "deck_size"],
  reserve: ["naruto-reserve.ui.reserve", "naruto-reserve.reserve", "reserve_size"],
  deck_ninja: ["naruto-reserve.ui.deck-ninja", "naruto-reserve.deck_ninja", "deck_ninja"],
  total_ninja: ["naruto-reserve.ui.total-ninja", "naruto-reserve.total_ninja", "total_ninja"],
};
const COUNTERS = Object.keys(COUNTER);

export function mount(el) {
  const box = document.createElement("dl");
  box.className = "reserve-counters";
  const values = {};
  for (const key of COUNTERS) {
    const item = document.createElement("div");
    item.className = "reserve-counter";
    item.dataset.counter = key;
    const term = document.createElement("dt");
    term.textContent = word(COUNTER[key][0]) || key;
    const value = document.createElement("dd");
    value.textContent = "–";
    item.append(term, value);
    box.append(item);
    values[key] = value;
  }
  el.querySelector("form").before(box);
  el.addEventListener("calc:verdict", ({ detail }) => {
    const counts = detail.ok && detail.result ? detail.result.counts : null;
    const broken = new Set(counts ? detail.result.violations.map((v) => v.code) : []);
    for (const key of COUNTERS) {
      const value = values[key];
      if (!counts || counts[key] === null) { // null: a count that needs the deck, not given yet
        value.textContent = "–";
        delete value.parentElement.dataset.over;
        continue;
      }
      const [, limitKey, code] = COUNTER[key];
      value.textContent = `${counts[key]}/${limit(limitKey)}`;
      if (broken.has(code)) value.parentElement.dataset.over = "true";
      else delete value.parentElement.dataset.over;
    }
  });
}
