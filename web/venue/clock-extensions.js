// Extra time for a table (clock.ext=<table>:<minutes>): added, listed with its end, removed, and
// each end signalled once as it passes.
import { word } from "../shared/page-data.js";
import { signal } from "./signal.js";
import { fill } from "../shared/share.js";
import { LIMITS, MINUTE, clock, clockTime, el, extForm, remaining, roundEnd, setText, state } from "./clock-parts.js";
import { labelOf } from "./clock-fields.js";

const list = el.querySelector(".clock-ext-list");
const sounded = new Set(); // ends already signalled ("round@<ms>", "table 12@<ms>")

// More time for a table that has some adds up, within the longest extension; a new table,
// within the number of tables a link may carry. Returns [the field, its error] when refused.
export function addExtension(table, minutes) {
  const { table: tableInput, extra } = extForm.elements;
  const same = clock.extensions.find((ext) => ext.table === table);
  if (same && same.minutes + minutes > LIMITS.maxExtension) {
    const total = same.minutes + minutes;
    return [extra, fill(word("error.out_of_range"), { label: labelOf(extra), value: total, minimum: 1, maximum: LIMITS.maxExtension })];
  }
  if (!same && clock.extensions.length >= LIMITS.maxExtensions) {
    return [tableInput, fill(word("clock.ext.many"), { maximum: LIMITS.maxExtensions })];
  }
  if (same) same.minutes += minutes;
  else clock.extensions.push({ table, minutes });
  clock.extensions.sort((a, b) => a.table - b.table);
  return null;
}

export function renderExtensions(now) {
  const shown = [...list.children].map((item) => `${item.dataset.table}:${item.dataset.minutes}`).join(" ");
  if (shown !== clock.extensions.map(({ table, minutes }) => `${table}:${minutes}`).join(" ")) buildExtensions();
  const base = state(now) === "paused" ? null : roundEnd(now);
  for (const item of list.children) {
    const table = Number(item.dataset.table);
    const minutes = Number(item.dataset.minutes);
    const text = item.firstChild;
    const ends = base === null ? null : base + minutes * MINUTE;
    item.dataset.end = ends ?? "";
    if (ends === null) {
      item.dataset.state = "waiting";
      setText(text, fill(word("clock.ext.paused"), { table, minutes }));
    } else if (now < ends) {
      item.dataset.state = "running";
      setText(text, fill(word("clock.ext.running"), { table, minutes, time: clockTime.format(ends), left: remaining(ends - now) }));
    } else {
      item.dataset.state = "time";
      setText(text, fill(word("clock.ext.time"), { table }));
    }
  }
}

function buildExtensions() {
  const items = clock.extensions.map(({ table, minutes }) => {
    const item = document.createElement("li");
    const text = document.createElement("span");
    item.dataset.table = table;
    item.dataset.minutes = minutes;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "md-button clock-ext-remove";
    remove.textContent = "×";
    remove.setAttribute("aria-label", fill(word("clock.ext.remove"), { table }));
    remove.dataset.action = "remove"; // the clock's controls: removeExtension(), then the display and the address
    item.append(text, remove);
    return item;
  });
  list.replaceChildren(...items);
}

export function removeExtension(table) {
  clock.extensions = clock.extensions.filter((ext) => ext.table !== table);
}

// Each end sounds once, when it passes while the page is open (a link opened after it, no).
export function signalEnds(now, quiet) {
  const ends = [];
  if (clock.end !== null) ends.push([`round@${clock.end}`, "round", clock.end]);
  const base = state(now) === "paused" ? null : roundEnd(now);
  if (base !== null) {
    for (const { table, minutes } of clock.extensions) {
      const ends_at = base + minutes * MINUTE;
      ends.push([`table ${table}@${ends_at}`, `table ${table}`, ends_at]);
    }
  }
  for (const [key, what, at] of ends) {
    if (now < at || sounded.has(key)) continue;
    sounded.add(key);
    if (!quiet) signal(el, what);
  }
}

// A new round: its ends may sound again.
export function forgetEnds() {
  sounded.clear();
}
