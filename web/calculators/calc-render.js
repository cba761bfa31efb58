// A verdict on the page: summary, details, each error under its field, data-result, the
// "calc:verdict" event (detail: the verdict) that optional widgets (data-widget) listen to.
// Written with textContent only. Whatever gave the verdict (verdict.js), it is rendered here alike.
import { hiddenByChoices } from "./calc-link.js";
import { word } from "../shared/page-data.js";

let loggedInternal = false;
export const scrollToVerdict = new Set(); // calculators a shared link points at, until their first verdict

// Wording that depends on a choice (data-when-field/value, e.g. a question per match format):
// show the variant of the current choice; and the fields the choices hide (calc-link.js), hidden at
// once. Presentation only: it works before the engine starts.
// Reads the checked choices only: FormData would force a whole-page layout after a DOM change.
export function applyChoices(el) {
  const chosen = {};
  for (const radio of el.querySelectorAll("form input[type=radio]:checked")) chosen[radio.name] = radio.value;
  for (const node of el.querySelectorAll("[data-when-field]")) {
    node.hidden = chosen[node.dataset.whenField] !== node.dataset.whenValue;
  }
  if (!el.dataset.hiddenBy) return;
  const hidden = hiddenByChoices(el);
  for (const box of el.querySelectorAll(".calc-field[data-field]")) box.hidden = hidden.has(box.dataset.field);
}

function clearErrors(el) {
  for (const box of el.querySelectorAll(".calc-error")) {
    box.hidden = true;
    box.textContent = "";
  }
  for (const control of el.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  for (const control of el.querySelectorAll("[data-error-for]")) {
    control.setAttribute("aria-describedby", control.dataset.describedby || "");
    delete control.dataset.errorFor;
  }
}

// `needed`: an answer not given yet, shown as a neutral note (polite, not invalid) until touched.
function showError(el, field, message, needed = false) {
  const box = el.querySelector(`[data-field="${CSS.escape(field)}"] .calc-error`);
  if (!box) return false;
  box.textContent = message;
  box.hidden = false;
  box.classList.toggle("calc-needed", needed);
  box.setAttribute("role", needed ? "status" : "alert");
  if (needed) return true;
  const controls = el.querySelectorAll(`[data-field="${CSS.escape(field)}"] input, [data-field="${CSS.escape(field)}"] textarea`);
  for (const control of controls) {
    control.setAttribute("aria-invalid", "true");
    if (control.dataset.describedby === undefined) control.dataset.describedby = control.getAttribute("aria-describedby") || "";
    control.dataset.errorFor = field;
    control.setAttribute("aria-describedby", `${control.dataset.describedby} ${box.id}`.trim());
  }
  return true;
}

// `answered`: the fields the user has answered or changed (typed, chosen, or given by the link): until
// then an answer the verdict still needs (error code "required"/"needed") is a neutral note, not an error.
export function render(el, verdict, answered) {
  const summary = el.querySelector(".calc-summary");
  const details = el.querySelector(".calc-details");
  clearErrors(el);
  details.replaceChildren();
  summary.textContent = "";
  let revealed = null; // the first question this verdict shows (the tiebreak's next criterion)
  for (const box of el.querySelectorAll(".calc-field[data-field]")) {
    const hide = verdict.hidden_fields.includes(box.dataset.field);
    if (box.hidden && !hide) revealed ??= box;
    box.hidden = hide;
  }
  if (verdict.ok) {
    summary.textContent = verdict.summary;
    for (const line of verdict.details) {
      const item = document.createElement("li");
      item.textContent = line;
      details.append(item);
    }
    el.dataset.result = JSON.stringify(verdict.result);
  } else {
    const unplaced = verdict.errors.filter((error) => !showError(el, error.field, error.message,
      (error.code === "required" || error.code === "needed") && !answered.has(error.field)));
    summary.textContent = unplaced.map((error) => error.message).join(" ");
    el.dataset.result = "null";
  }
  el.dispatchEvent(new CustomEvent("calc:verdict", { detail: verdict }));
  // A shared link's first verdict is brought into view (the link scrolled to the calculator's top).
  if (scrollToVerdict.delete(el)) el.querySelector(".calc-verdict").scrollIntoView({ block: "nearest" });
  else keepInView(el, revealed ?? summary, Boolean(revealed)); // a question just shown below the keyboard first, else the verdict
}

// While the judge types, a phone's keyboard leaves the field at the screen's bottom and the verdict
// (or the next question the answer reveals) under it out of sight: scroll the page up just enough to
// show it, when the field being typed in stays in view too (a long form: the field wins; the rest
// is a scroll away). A question is the next thing to answer: shown even if the field leaves the
// screen (200 % text on a small phone leaves no room for both), the focus staying in the field.
function keepInView(el, target, question) {
  const field = document.activeElement;
  if (!target.textContent || !field || !el.querySelector("form").contains(field)) return;
  const view = window.visualViewport; // what the keyboard leaves visible
  const below = target.getBoundingClientRect().bottom - (view ? view.offsetTop + view.height : innerHeight);
  const top = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0; // Material's sticky bar
  if (below <= 0) return;
  if (field.getBoundingClientRect().top - below >= top) scrollBy(0, Math.ceil(below)); // whole pixels: a part of one would stay hidden
  else if (question) target.scrollIntoView({ block: "nearest", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "instant" : "smooth" });
}

// No verdict on screen (nothing answers the current values yet).
export function clearVerdict(el) {
  if (!("result" in el.dataset)) return;
  clearErrors(el);
  el.querySelector(".calc-details").replaceChildren();
  el.querySelector(".calc-summary").textContent = "";
  delete el.dataset.result;
}

export function internal(el, detail) {
  if (!loggedInternal) console.error("calculator internal error:", detail);
  loggedInternal = true;
  clearErrors(el);
  el.querySelector(".calc-details").replaceChildren();
  el.querySelector(".calc-summary").textContent = word("ui.internal");
  el.dataset.result = "null";
}
