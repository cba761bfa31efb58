// Live counters for naruto-reserve (deck, Réserve, non-Platoon Ninja in the deck and in both):
// "count/limit" from the verdict's `counts` and the limits the build wrote (data-rule-*), marked
// when the verdict has that limit's violation (Python decides, an empty Réserve included);
// "–" while the lists cannot be read, and for a count that needs the deck while a Réserve is typed
// alone. The counters stay in view (position: sticky) while a long list is pasted or scrolled on a phone. Words: data-ui-* (catalog keys naruto-reserve.ui.*).
// count -> [its word, its limit, the violation code saying the limit is not met]
const COUNTER = {
  deck: ["uiDeck", "ruleDeck", "deck_size"],
  reserve: ["uiReserve", "ruleReserve", "reserve_size"],
  deck_ninja: ["uiDeckNinja", "ruleDeckNinja", "deck_ninja"],
  total_ninja: ["uiTotalNinja", "ruleTotalNinja", "total_ninja"],
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
    term.textContent = el.dataset[COUNTER[key][0]] || key;
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
      const [, limit, code] = COUNTER[key];
      value.textContent = `${counts[key]}/${el.dataset[limit]}`;
      if (broken.has(code)) value.parentElement.dataset.over = "true";
      else delete value.parentElement.dataset.over;
    }
  });
}
