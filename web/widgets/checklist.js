// A checklist of the turns left (naruto-end-of-time) that a judge ticks off on a phone.
// One checkbox per entry of the verdict's `turns`; its text is the matching line of `details`
// (already localized, with the players' names), written with textContent. Ticks survive
// re-evaluations that leave the turns unchanged (e.g. editing a name) and reset otherwise.
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
      list.hidden = true;
      list.replaceChildren();
      notes.textContent = "";
      shown = null;
      return;
    }
    const turns = detail.result.turns;
    const key = JSON.stringify(turns);
    const ticked = key === shown ? [...list.querySelectorAll("input")].map((box) => box.checked) : [];
    list.replaceChildren();
    turns.forEach((turn, index) => {
      const item = document.createElement("li");
      item.dataset.player = turn.player;
      item.dataset.kind = turn.kind;
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = Boolean(ticked[index]);
      const text = document.createElement("span");
      text.textContent = detail.details[index];
      label.append(box, text);
      item.append(label);
      list.append(item);
    });
    notes.textContent = detail.details.slice(turns.length).join(" ");
    list.hidden = false;
    shown = key;
  });
}
