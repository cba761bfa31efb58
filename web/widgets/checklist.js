// A checklist of the turns left (naruto-end-of-time) that a judge ticks off on a phone.
// One checkbox per entry of the verdict's `turns`; its text is the matching line of `details`
// (already localized, with the players' names), written with textContent. Ticks survive
// re-evaluations that leave the turns unchanged (e.g. editing a name) and reset otherwise.
// A verdict updates the boxes in place: one that arrives while a box has the keyboard's focus
// (the judge tabbed on before it came) leaves the focus there, or on the verdict if the list goes,
// never on the page's start.
export function mount(el) {
  const list = document.createElement("ul");
  list.className = "calc-checklist";
  list.hidden = true;
  const notes = document.createElement("p");
  notes.className = "calc-checklist-notes";
  el.querySelector(".calc-verdict").append(list, notes);
  let shown = null;
  el.addEventListener("calc:verdict", ({ detail }) => {
    el.classList.toggle("calc-has-checklist", Boolean(detail.ok));
    if (!detail.ok) {
      // A box with the focus is about to be hidden: the focus goes to the verdict that replaces the list
      // (its error said), so Tab goes on from there, not from the page's start.
      if (list.contains(document.activeElement)) {
        const verdict = el.querySelector(".calc-verdict");
        verdict.tabIndex = -1;
        verdict.focus({ preventScroll: true });
      }
      list.hidden = true;
      list.replaceChildren();
      notes.textContent = "";
      shown = null;
      return;
    }
    const turns = detail.result.turns;
    const key = JSON.stringify(turns);
    const focused = list.contains(document.activeElement);
    const items = [...list.children];
    turns.forEach((turn, index) => {
      let item = items[index];
      if (!item) {
        item = document.createElement("li");
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        label.append(box, document.createElement("span"));
        item.append(label);
        list.append(item);
      }
      item.dataset.player = turn.player;
      item.dataset.kind = turn.kind;
      if (key !== shown) item.querySelector("input").checked = false;
      item.querySelector("span").textContent = detail.details[index];
    });
    for (const item of items.slice(turns.length)) item.remove();
    // The focused box was one of those removed (fewer turns): the last box takes the focus.
    if (focused && !list.contains(document.activeElement)) list.querySelector("li:last-child input")?.focus();
    notes.textContent = detail.details.slice(turns.length).join(" ");
    list.hidden = false;
    shown = key;
  });
}
