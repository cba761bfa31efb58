// Mounts the calculators of a page (forms rendered at build time). Pages without a calculator load
// no engine byte. Each calculator exposes data-state (loading | ready | error) and, after each
// evaluation, data-result (the verdict's machine result as JSON). Its parts, a module each: the
// engine's life (calc-engine.js), the link's state (calc-link.js), the verdict for given values
// whatever its source (verdict.js) and its rendering (calc-render.js).
import { mountEngine, retryReloads, showEarly, startEngine } from "./calc-engine.js";
import { inputs, isBlank, leftOut, linkTo, linkValues, mountLink, restore, showTwice, syncUrlAfterVerdict, syncUrlNow,
  syncUrlSoon, userSet } from "./calc-link.js";
import { applyChoices, clearVerdict, internal, render, scrollToVerdict } from "./calc-render.js";
import { word } from "../shared/page-data.js";
import { copyLink, showQr } from "../shared/share.js";
import { verdictFor } from "./verdict.js";

const calculators = [...document.querySelectorAll(".calc[data-calc]")];
const latest = new Map(); // calculator element -> number of its latest request
// Fields the user has answered or changed (typed, chosen, or given by the link): calc-render.js render().
const touched = new Map(); // calculator element -> Set of field names
let asked = 0;

// Ask for a verdict. `always` is false on start-up: an untouched form stays quiet.
function evaluate(el, always = true) {
  if (!always && isBlank(el)) return;
  const answer = verdictFor(el.dataset.calc, inputs(el), el.dataset.lang);
  const mine = ++asked;
  latest.set(el, mine);
  if (!answer) { // nothing can answer yet: the engine, once ready, evaluates every calculator
    showEarly(el, false);
    return clearVerdict(el); // a verdict for other values (the build's tables) never stays
  }
  answer.then((data) => {
    if (latest.get(el) === mine) {
      if (!data) clearVerdict(el); // values the build's tables do not hold: the engine answers them
      else if (data.type === "verdict") render(el, data.verdict, touched.get(el));
      else internal(el, data.detail);
      showEarly(el, data?.verdict?.ok ? data.early ?? false : false); // beside a verdict only, not a "required" note
    }
    syncUrlAfterVerdict();
  });
}

if (calculators.length) {
  mountLink(calculators);
  mountEngine(calculators, (el) => evaluate(el, false));
  const fromLink = linkValues();
  for (const el of calculators) {
    const form = el.querySelector("form");
    restore(el, fromLink.get(el));
    touched.set(el, new Set(fromLink.get(el).keys()));
    showTwice(el);
    if (location.hash === `#${el.id}` && fromLink.get(el).size) scrollToVerdict.add(el);
    applyChoices(el);
    evaluate(el, false); // a link's values: answered from the build's tables before the engine, when they hold them
    form.addEventListener("input", (event) => {
      // The user's value now; a widget filling its field at start-up (detail.initial) is not the user.
      if (event.target.name && !event.detail?.initial) {
        touched.get(el).add(event.target.name);
        userSet(el, event.target.name);
      }
      applyChoices(el);
      evaluate(el);
      if (!event.detail?.initial) syncUrlSoon(); // a widget filling its field at start-up is no change to share
    });
    el.addEventListener("focusout", syncUrlNow); // before a tap on a link takes the address
    // The keyboard's Go/Enter asks for the answer: whatever is still missing is now an error. (The form
    // has no submit button, so a form of several fields never submits on Enter by itself.)
    const ask = (event) => {
      event.preventDefault();
      for (const box of el.querySelectorAll(".calc-field[data-field]")) touched.get(el).add(box.dataset.field);
      evaluate(el);
    };
    form.addEventListener("submit", ask);
    form.addEventListener("keydown", (event) => { if (event.key === "Enter" && event.target.tagName === "INPUT") ask(event); });
    const share = el.querySelector(".calc-share");
    const title = el.querySelector(".calc-title").textContent;
    // What the link carries, said where a calculator has a word for it (the shame tracker: a copy of its counters).
    const note = () => [leftOut(el), word(`${el.dataset.calc}.ui.copy`)].filter(Boolean).join(" ");
    share.addEventListener("click", () => copyLink(linkTo(el), title, note()));
    el.querySelector(".calc-qr").addEventListener("click", () => showQr(linkTo(el), title, note()));
    el.querySelector(".calc-retry").addEventListener("click", () => (retryReloads() ? location.reload() : startEngine()));
    if (el.dataset.widget) {
      import(new URL(`../widgets/${el.dataset.widget}.js`, import.meta.url)).then((widget) => widget.mount(el));
    }
  }
  addEventListener("pagehide", syncUrlNow);
  document.documentElement.dataset.calcMounted = "";
  startEngine();
}
