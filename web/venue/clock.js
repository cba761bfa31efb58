// The round clock (sitebuild/venue.py renders it). It counts down to an absolute end time
// (epoch ms), never by adding up ticks, so it stays right after a reload, a sleeping phone or a
// background tab. Its whole state is in the page URL (?clock.game=…&clock.end=…), so a copied
// link or QR code opens the same clock on another phone. Machine-readable state for tests and
// tools: data-clock-state (idle | running | paused | time) and data-clock-end on the element.
// Words and limits come from the build (the page's data block, page-data.js); the procedure to
// apply is the page's own calculators; the chosen game's section is marked (data-chosen) and
// linked from the "time" state. A link's values are read by venue/input.js with the grammar of
// the typed fields: each one the clock cannot take gets its localized error, never a default.
//
// Its modules: clock-parts.js (elements, state, shared reads), clock-fields.js (typed fields and their
// errors), clock-address.js (the link), clock-extensions.js (tables' extra time), clock-wake.js (the
// screen kept on), clock-room.js (the room display); this file shows the state and runs the controls.
import { limit, word } from "../shared/page-data.js";
import { copyLink, fill, headingText, showQr } from "../shared/share.js";
import { parseWhole } from "./input.js";
import {
  LIMITS, MINUTE, button, chosen, clock, clockTime, digits, el, extForm, fixedMinutes, gameError, gameLabel, gameLegend,
  minutesInput, radios, remaining, roundInput, roundsInput, setText, setup, state,
} from "./clock-parts.js";
import { check, checkRound, readRound, roundText, showError } from "./clock-fields.js";
import { link, readUrl, writeUrl } from "./clock-address.js";
import { addExtension, forgetEnds, removeExtension, renderExtensions, signalEnds } from "./clock-extensions.js";
import { holdScreen, holding } from "./clock-wake.js";
import { enterRoom, fullscreen, leaveRoom, timeFirst } from "./clock-room.js";

const status = el.querySelector(".clock-status");
const gameName = el.querySelector(".clock-game-name");
const roundLine = el.querySelector(".clock-round");
const procedureTitle = el.querySelector(".clock-procedure-title");

// The browser drops the screen's lock when the page is hidden: take it again on return.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  update();
  if (state() === "running") holdScreen(true);
});

// --- display --------------------------------------------------------------------------------

function update(quiet = false) {
  const now = Date.now();
  const current = state(now);
  el.dataset.clockState = current;
  el.dataset.clockEnd = clock.end ?? "";
  const fixed = fixedMinutes();
  let said = current; // the status says what is missing before a start
  if (current === "idle") {
    const typed = fixed || parseWhole(minutesInput.value, 1, LIMITS.maxMinutes, LIMITS.maxLength).value;
    setText(digits, typed ? remaining(typed * MINUTE) : "--:--");
    if (chosen()) said = typed ? "idle_ready" : "idle_length"; // a game chosen (the planner's link): the length, or nothing
  } else {
    setText(digits, remaining(current === "paused" ? clock.left : clock.end - now));
  }
  setText(status, fill(word(`clock.state.${said}`), { time: clock.end ? clockTime.format(clock.end) : "" }));
  el.querySelector(".clock-banner").hidden = current !== "time";
  // The game and the length are set before the round ("new round" sets them again); during the
  // round the digits come first, under the game's name. A round from a link whose game the clock
  // does not know runs on and asks for the game.
  const game = chosen();
  setup.hidden = current !== "idle" && game !== null;
  gameName.hidden = current === "idle" || game === null;
  setText(gameName, game ? gameLabel(game) : "");
  const roundWords = roundText();
  setText(roundLine, roundWords);
  roundLine.hidden = !roundWords || current === "idle";
  // The room display names the procedure when time is called (the chosen game's section title).
  const section = game && document.getElementById(`clock-${game.value}`);
  setText(procedureTitle, section ? headingText(section) : "");
  procedureTitle.hidden = current !== "time" || !section;
  el.dataset.long = String(digits.textContent.length > 5); // h:mm:ss takes smaller digits in the room display
  minutesInput.closest(".calc-field").hidden = Boolean(fixed) || current !== "idle";
  el.querySelector(".clock-fixed").hidden = !fixed || current !== "idle";
  button("start").hidden = current !== "idle";
  button("pause").hidden = current !== "running";
  button("resume").hidden = current !== "paused";
  button("add").hidden = current === "idle";
  // No more time than the longest round the clock takes from a link: it never writes one it would refuse.
  const ahead = (current === "paused" ? clock.left : Math.max(clock.end ?? 0, now) - now) + limit("clock.add_minutes") * MINUTE;
  button("add").disabled = ahead > LIMITS.maxAheadMinutes * MINUTE;
  button("reset").hidden = current === "idle" || current === "running";
  const procedure = el.querySelector(".clock-procedure-link");
  procedure.hidden = current !== "time" || game === null;
  procedure.querySelector("a").href = game ? `#clock-${game.value}` : "#";
  // The chosen game's procedure is marked and comes first, right under the clock (scrolling down
  // from a Pokémon clock reached the Naruto one first); the others stay readable below it, each
  // calculator usable; the blitz timer shows only for blitz.
  const procedures = [...document.querySelectorAll(".clock-procedure[data-clock-game]")];
  for (const section of procedures) section.toggleAttribute("data-chosen", section.dataset.clockGame === game?.value);
  const first = procedures.find((section) => section.hasAttribute("data-chosen"));
  if (first && first !== procedures[0]) procedures[0].before(first);
  for (const section of document.querySelectorAll(".clock-game[data-clock-game]")) {
    section.hidden = section.dataset.clockGame !== game?.value;
  }
  renderExtensions(now);
  signalEnds(now, quiet);
  if ((current === "running") !== holding()) holdScreen(current === "running");
}

// --- controls -------------------------------------------------------------------------------

function start() {
  if (!chosen()) {
    showError(gameError, fill(word("error.required"), { label: gameLegend() }));
    radios()[0].focus();
    return;
  }
  const minutes = fixedMinutes() || check(minutesInput, LIMITS.maxMinutes);
  if (!minutes) {
    minutesInput.focus();
    return;
  }
  if (!checkRound()) {
    (roundInput.getAttribute("aria-invalid") ? roundInput : roundsInput).focus();
    return;
  }
  clock.end = Date.now() + minutes * MINUTE;
  clock.left = null;
}

const actions = {
  start,
  pause() { clock.left = Math.max(0, clock.end - Date.now()); clock.end = null; },
  resume() { clock.end = Date.now() + clock.left; clock.left = null; },
  add() {
    const more = limit("clock.add_minutes") * MINUTE;
    if (clock.left !== null) clock.left += more;
    else clock.end = Math.max(clock.end, Date.now()) + more; // after time is called, the round restarts
  },
  reset() {
    clock.end = null; clock.left = null; clock.extensions = []; forgetEnds();
    const { round, rounds } = readRound(); // a new round is the next one, up to the total
    if (round.value && !rounds.error && (!rounds.value || round.value < rounds.value)) roundInput.value = String(round.value + 1);
  },
  room() { enterRoom(true); },
  fullscreen,
  remove(event) { removeExtension(Number(event.target.closest("li").dataset.table)); },
  leave() { leaveRoom(); },
  copy() { copyLink(link(), what()); },
  qr() { showQr(link(), what()); },
};

function what() {
  return fill(word("ui.qr.clock"), { game: chosen() ? gameLabel(chosen()) : "" });
}

el.addEventListener("click", (event) => {
  const action = event.target.closest("[data-action]")?.dataset.action;
  if (!actions[action]) return;
  actions[action](event);
  update();
  writeUrl();
  if (action === "start" && state() === "running") digits.scrollIntoView({ block: "nearest" }); // the time in view
});

setup.addEventListener("input", () => {
  if (chosen()) showError(gameError, "");
  check(minutesInput, LIMITS.maxMinutes, false);
  checkRound(false);
  update();
  writeUrl();
});
setup.addEventListener("submit", (event) => event.preventDefault());

extForm.addEventListener("input", (event) => {
  check(event.target, event.target.name === "table" ? LIMITS.maxTable : LIMITS.maxExtension, false);
  writeUrl();
});
extForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const table = check(extForm.elements.table, LIMITS.maxTable);
  const minutes = check(extForm.elements.extra, LIMITS.maxExtension);
  if (!table || !minutes) return;
  const refused = addExtension(table, minutes);
  if (refused) {
    const [input, message] = refused;
    showError(input.parentElement.querySelector(".calc-error"), message);
    return;
  }
  extForm.reset();
  update();
  writeUrl();
});

const linkRefused = readUrl();
// A value brought by a link is checked at once, as if just typed.
if (minutesInput.value.trim()) check(minutesInput, LIMITS.maxMinutes, false);
if (roundInput.value.trim() || roundsInput.value.trim()) checkRound(false);
for (const input of [extForm.elements.table, extForm.elements.extra]) {
  if (input.value.trim()) check(input, input.name === "table" ? LIMITS.maxTable : LIMITS.maxExtension, false);
}
update(true); // ends already past when the page opens are shown, not sounded
if (clock.view === "room") enterRoom(false);
else if (state() !== "idle") timeFirst();
// A link the clock took whole is written again in its own form; one with errors stays as it came.
if (new URLSearchParams(location.search).has("clock.game") && !linkRefused) writeUrl();
setInterval(update, 250);
el.dataset.ready = "true"; // taps from now on are heard (tests wait for this)
