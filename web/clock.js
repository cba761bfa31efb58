// The round clock (sitebuild/venue.py renders it). It counts down to an absolute end time
// (epoch ms), never by adding up ticks, so it stays right after a reload, a sleeping phone or a
// background tab. Its whole state is in the page URL (?clock.game=…&clock.end=…), so a copied
// link or QR code opens the same clock on another phone. Machine-readable state for tests and
// tools: data-clock-state (idle | running | paused | time) and data-clock-end on the element.
// Words and limits come from the build (the page's data block, page-data.js); the procedure to
// apply is the page's own calculators; the chosen game's section is marked (data-chosen) and
// linked from the "time" state. A link's values are read by venue-input.js with the grammar of
// the typed fields: each one the clock cannot take gets its localized error, never a default.
import { limit, word } from "./page-data.js";
import { signal } from "./signal.js";
import { copyLink, fill, headingText, replaceQuery, showList, showQr, twice } from "./share.js";
import { parseWhole, readClockLink } from "./venue-input.js";

const el = document.querySelector(".clock");
const setup = el.querySelector(".clock-setup");
const extForm = el.querySelector(".clock-ext-form");
const digits = el.querySelector(".clock-digits");
const status = el.querySelector(".clock-status");
const wake = el.querySelector(".clock-wake");
const list = el.querySelector(".clock-ext-list");
const gameName = el.querySelector(".clock-game-name");
const linkErrors = el.querySelector(".clock-link-errors");
const gameError = setup.querySelector('[data-field="game"] .calc-error');
const minutesInput = setup.elements.minutes;
const roundInput = setup.elements.round;
const roundsInput = setup.elements.rounds;
const roundLine = el.querySelector(".clock-round");
const procedureTitle = el.querySelector(".clock-procedure-title");
const MINUTE = 60_000;
const clockTime = new Intl.DateTimeFormat(el.dataset.lang, { hour: "2-digit", minute: "2-digit" });

let end = null; // epoch ms while running (or after time), else null
let left = null; // ms left while paused, else null
let extensions = []; // [{table, minutes}], each ending `minutes` after the round
let view = null; // "room": the room display (clock.view=room), else the page's own layout
const sounded = new Set(); // ends already signalled ("round@<ms>", "table 12@<ms>")

// --- state and URL -------------------------------------------------------------------------

const radios = () => [...setup.querySelectorAll("input[name=game]")];
// The game played, or null: a link named a game the clock does not know (its error says so).
const chosen = () => radios().find((r) => r.checked) || null;
const gameLabel = (radio) => radio.closest("label").textContent;
const fixedMinutes = () => Number(chosen()?.dataset.fixed) || null; // the rules' length (blitz) or none
const LIMITS = {
  games: radios().map((radio) => radio.value), maxMinutes: limit("clock.max_minutes"),
  maxExtension: limit("clock.max_extension"), maxTable: limit("clock.max_table"), maxExtensions: limit("clock.max_extensions"),
  maxAheadMinutes: limit("clock.max_ahead_minutes"), maxLength: limit("clock.max_length"), maxRound: limit("clock.max_round"),
  views: limit("clock.views"),
};

function state(now = Date.now()) {
  if (left !== null) return "paused";
  if (end === null) return "idle";
  return now < end ? "running" : "time";
}

// When the round ends, as far as extensions are concerned (null: not started).
function roundEnd(now) {
  if (end !== null) return end;
  return left !== null ? now + left : null;
}

// The link's values; those the clock cannot take are listed with their errors and left in the
// address as they were until the organiser acts (a reload or a language switch shows them again).
function readUrl() {
  const params = new URLSearchParams(location.search);
  const link = readClockLink(params, LIMITS, Date.now());
  const known = params.has("clock.game") || link.end !== null || link.left !== null;
  for (const radio of radios()) radio.checked = known ? radio.value === link.game : radio.defaultChecked;
  minutesInput.value = link.minutes;
  roundInput.value = link.round;
  roundsInput.value = link.rounds;
  view = link.view;
  extForm.elements.table.value = link.table;
  extForm.elements.extra.value = link.extra;
  end = link.end;
  left = link.left;
  extensions = link.extensions.sort((a, b) => a.table - b.table);
  const messages = twice(params, "clock.", ["clock.ext"]); // one clock.ext a table
  for (const error of link.errors) {
    if (error.field === "game") {
      const choices = radios().map(gameLabel).join(", ");
      showError(gameError, fill(word(`error.${error.error}`), { label: gameLegend(), choices, ...error.params }));
    } else {
      messages.push(fill(word(`clock.link.error.${error.key}`), error.params));
    }
  }
  // The setup form's values from the link: that form is hidden while a round runs (and the length
  // for a game whose rules fix it), so their errors are listed with the link's, always in view.
  const { round, rounds, missing } = readRound();
  const minutes = parseWhole(minutesInput.value, 1, LIMITS.maxMinutes, LIMITS.maxLength);
  const fieldMessages = [[minutesInput, minutes, false], [roundsInput, rounds, false], [roundInput, round, missing]]
    .map(([input, parsed, required]) => messageFor(input, parsed, required)).filter(Boolean);
  showList(linkErrors, [...messages, ...fieldMessages]);
  return link.errors.length + fieldMessages.length > 0;
}

const gameLegend = () => setup.querySelector('[data-field="game"] legend').textContent;

function writeUrl() {
  const params = new URLSearchParams(location.search);
  for (const key of [...params.keys()]) if (key.startsWith("clock.")) params.delete(key);
  if (chosen()) params.set("clock.game", chosen().value);
  // Typed values go in as typed, valid or not: nothing entered is lost on reload or language switch.
  if (minutesInput.value.trim()) params.set("clock.minutes", minutesInput.value); // kept while blitz is tried
  if (roundInput.value.trim()) params.set("clock.round", roundInput.value);
  if (roundsInput.value.trim()) params.set("clock.rounds", roundsInput.value);
  if (view) params.set("clock.view", view);
  if (end !== null) params.set("clock.end", String(end));
  if (left !== null) params.set("clock.left", String(left));
  for (const { table, minutes } of extensions) params.append("clock.ext", `${table}:${minutes}`);
  if (extForm.elements.table.value.trim()) params.set("clock.table", extForm.elements.table.value);
  if (extForm.elements.extra.value.trim()) params.set("clock.extra", extForm.elements.extra.value);
  replaceQuery(params); // the language menu keeps the clock
}

// The clock's own link: the round only (not the calculators' fields, nor a half-typed extension),
// so that its QR code stays small enough to scan from across a table.
const SHARED = ["clock.game", "clock.minutes", "clock.round", "clock.rounds", "clock.end", "clock.left", "clock.ext", "clock.view"];
function link() {
  const url = new URL(location.pathname, location.href);
  const params = new URLSearchParams(location.search);
  for (const key of SHARED) for (const value of params.getAll(key)) url.searchParams.append(key, value);
  return url.href;
}

// --- typed fields ---------------------------------------------------------------------------

function labelOf(input) {
  return el.querySelector(`label[for="${input.id}"]`).textContent;
}

// A message in a field's error box (empty: none); the field says it is invalid while it shows.
function showError(box, message) {
  box.textContent = message;
  box.hidden = !message;
  const control = box.closest(".calc-field").querySelector("input[type=text]"); // not the game's radios
  if (control && message) control.setAttribute("aria-invalid", "true");
  else control?.removeAttribute("aria-invalid");
}

// The field's whole number, or null after showing the localized error naming the field.
// `required` is false while typing: an empty field is not an error until it is needed.
function check(input, maximum, required = true) {
  return show(input, parseWhole(input.value, 1, maximum, LIMITS.maxLength), required);
}

// The localized error of `parsed` (parseWhole's answer for `input`), naming the field, or "".
function messageFor(input, parsed, required) {
  const label = labelOf(input);
  if (parsed.empty) return required ? fill(word("error.required"), { label }) : "";
  return parsed.error ? fill(word(`error.${parsed.error}`), { label, ...parsed.params }) : "";
}

// `parsed` (parseWhole's answer for `input`) shown in the field's error box; its number or null.
function show(input, parsed, required) {
  const box = input.parentElement.querySelector(".calc-error");
  const message = messageFor(input, parsed, required);
  showError(box, message);
  const hint = input.id + "-hint";
  const described = [el.querySelector(`#${CSS.escape(hint)}`) ? hint : "", message ? box.id : ""].filter(Boolean).join(" ");
  if (described) input.setAttribute("aria-describedby", described);
  else input.removeAttribute("aria-describedby");
  return parsed.value ?? null;
}

// The round number and the total as typed (both optional; a total needs a number, which it bounds):
// parseWhole's answer for each, and `missing` when a total comes without a number.
function readRound() {
  const rounds = parseWhole(roundsInput.value, 1, LIMITS.maxRound, LIMITS.maxLength);
  const round = parseWhole(roundInput.value, 1, rounds.value ?? LIMITS.maxRound, LIMITS.maxLength);
  return { round, rounds, missing: Boolean(rounds.value) && Boolean(round.empty) };
}

// readRound() shown in the fields' error boxes: {round, rounds} when valid (each may be null), else null.
// `required` is false while typing: a total without a number yet is not an error until the round starts.
function checkRound(required = true) {
  const { round, rounds, missing } = readRound();
  show(roundsInput, rounds, false);
  show(roundInput, round, required && missing);
  return round.error || rounds.error || (required && missing) ? null : { round: round.value ?? null, rounds: rounds.value ?? null };
}

// "Round 3 of 5" for the face and the room display, or "" while the fields say no valid round.
function roundText() {
  const { round, rounds } = readRound();
  if (rounds.error || !round.value) return "";
  return fill(rounds.value ? word("clock.round.show_of") : word("clock.round.show"), { round: round.value, rounds: rounds.value });
}

// --- extensions -----------------------------------------------------------------------------

// More time for a table that has some adds up, within the longest extension; a new table,
// within the number of tables a link may carry. Returns [the field, its error] when refused.
function addExtension(table, minutes) {
  const { table: tableInput, extra } = extForm.elements;
  const same = extensions.find((ext) => ext.table === table);
  if (same && same.minutes + minutes > LIMITS.maxExtension) {
    const total = same.minutes + minutes;
    return [extra, fill(word("error.out_of_range"), { label: labelOf(extra), value: total, minimum: 1, maximum: LIMITS.maxExtension })];
  }
  if (!same && extensions.length >= LIMITS.maxExtensions) {
    return [tableInput, fill(word("clock.ext.many"), { maximum: LIMITS.maxExtensions })];
  }
  if (same) same.minutes += minutes;
  else extensions.push({ table, minutes });
  extensions.sort((a, b) => a.table - b.table);
  return null;
}

// Text nodes are replaced only when their words change: a live region is not re-announced
// four times a second, and a focused button is not swapped under the keyboard.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function renderExtensions(now) {
  const shown = [...list.children].map((item) => `${item.dataset.table}:${item.dataset.minutes}`).join(" ");
  if (shown !== extensions.map(({ table, minutes }) => `${table}:${minutes}`).join(" ")) buildExtensions();
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
  const items = extensions.map(({ table, minutes }) => {
    const item = document.createElement("li");
    const text = document.createElement("span");
    item.dataset.table = table;
    item.dataset.minutes = minutes;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "md-button clock-ext-remove";
    remove.textContent = "×";
    remove.setAttribute("aria-label", fill(word("clock.ext.remove"), { table }));
    remove.addEventListener("click", () => {
      extensions = extensions.filter((ext) => ext.table !== table);
      update();
      writeUrl();
    });
    item.append(text, remove);
    return item;
  });
  list.replaceChildren(...items);
}

// Each end sounds once, when it passes while the page is open (a link opened after it, no).
function signalEnds(now, quiet) {
  const ends = [];
  if (end !== null) ends.push([`round@${end}`, "round", end]);
  const base = state(now) === "paused" ? null : roundEnd(now);
  if (base !== null) {
    for (const { table, minutes } of extensions) {
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

// --- screen wake lock -----------------------------------------------------------------------

let lock = null;
let wantLock = false;
async function holdScreen(want) {
  wantLock = want;
  if (!want) {
    wake.hidden = true;
    const held = lock;
    lock = null;
    await held?.release();
    return;
  }
  if (lock) return;
  wake.hidden = false;
  if (!navigator.wakeLock) {
    wake.textContent = word("clock.wake.off");
    return;
  }
  try {
    const got = await navigator.wakeLock.request("screen");
    if (!wantLock) return got.release(); // paused while the request was pending
    lock = got;
    lock.addEventListener("release", () => { if (lock === got) lock = null; });
    wake.textContent = word("clock.wake.on");
  } catch {
    wake.textContent = word("clock.wake.off"); // refused (battery saver, hidden page)
  }
}
// The browser drops the lock when the page is hidden: take it again on return.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  update();
  if (state() === "running") holdScreen(true);
});

// --- display --------------------------------------------------------------------------------

function remaining(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${String(m).padStart(2, "0")}:${s}`;
}

const button = (action) => el.querySelector(`[data-action="${action}"]`);

function update(quiet = false) {
  const now = Date.now();
  const current = state(now);
  el.dataset.clockState = current;
  el.dataset.clockEnd = end ?? "";
  const fixed = fixedMinutes();
  let said = current; // the status says what is missing before a start
  if (current === "idle") {
    const typed = fixed || parseWhole(minutesInput.value, 1, LIMITS.maxMinutes, LIMITS.maxLength).value;
    setText(digits, typed ? remaining(typed * MINUTE) : "--:--");
    if (chosen()) said = typed ? "idle_ready" : "idle_length"; // a game chosen (the planner's link): the length, or nothing
  } else {
    setText(digits, remaining(current === "paused" ? left : end - now));
  }
  setText(status, fill(word(`clock.state.${said}`), { time: end ? clockTime.format(end) : "" }));
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
  const ahead = (current === "paused" ? left : Math.max(end ?? 0, now) - now) + limit("clock.add_minutes") * MINUTE;
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
  if ((current === "running") !== wantLock) holdScreen(current === "running");
}

// --- room display and phone layout ---------------------------------------------------------

// The room display: the clock alone on the whole screen, for a projector (clock.view=room). The
// element moves to the end of <body> (Material's page hidden behind it: no chrome, no scrolling)
// and back; full screen where the browser has it and a tap asked for it, a full window otherwise.
const home = document.createComment("clock");
// On the projected room display the controls go after a few seconds without a pointer, touch or
// key (they are on the image the hall sees), and come back with the next one.
const ROOM_IDLE_MS = 4_000;
let roomIdle = null;
function roomActivity() {
  if (view !== "room") return;
  delete el.dataset.idle;
  clearTimeout(roomIdle);
  roomIdle = setTimeout(() => { if (view === "room") el.dataset.idle = ""; }, ROOM_IDLE_MS);
}
for (const type of ["pointermove", "pointerdown", "keydown"]) document.addEventListener(type, roomActivity, { capture: true });

function enterRoom(tapped) {
  if (!home.parentNode) el.before(home);
  document.body.append(el);
  el.classList.add("md-typeset"); // Material's typography, outside its article
  el.dataset.view = "room";
  document.documentElement.dataset.clockView = "room";
  el.querySelector(".clock-room-controls").hidden = false;
  button("fullscreen").hidden = !document.fullscreenEnabled;
  view = "room";
  roomActivity();
  if (tapped) actions.fullscreen(); // the click handler writes the address
}
function leaveRoom() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  home.replaceWith(el);
  el.classList.remove("md-typeset");
  delete el.dataset.view;
  delete document.documentElement.dataset.clockView;
  el.querySelector(".clock-room-controls").hidden = true;
  clearTimeout(roomIdle);
  delete el.dataset.idle;
  view = null;
  writeUrl();
  button("room").focus();
}
document.addEventListener("fullscreenchange", () => {
  button("fullscreen").hidden = !document.fullscreenEnabled || document.fullscreenElement === el;
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && view === "room" && !document.fullscreenElement && !document.querySelector("dialog[open]")) leaveRoom();
});

// A clock opened with a round under way (a shared link, a reload): the time comes first on a phone,
// above the page's introduction.
function timeFirst() {
  document.querySelector(".md-content__inner > h1")?.after(el);
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
  end = Date.now() + minutes * MINUTE;
  left = null;
}

const actions = {
  start,
  pause() { left = Math.max(0, end - Date.now()); end = null; },
  resume() { end = Date.now() + left; left = null; },
  add() {
    const more = limit("clock.add_minutes") * MINUTE;
    if (left !== null) left += more;
    else end = Math.max(end, Date.now()) + more; // after time is called, the round restarts
  },
  reset() {
    end = null; left = null; extensions = []; sounded.clear();
    const { round, rounds } = readRound(); // a new round is the next one, up to the total
    if (round.value && !rounds.error && (!rounds.value || round.value < rounds.value)) roundInput.value = String(round.value + 1);
  },
  room() { enterRoom(true); },
  fullscreen() { el.requestFullscreen?.().catch(() => {}); },
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
  actions[action]();
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
if (view === "room") enterRoom(false);
else if (state() !== "idle") timeFirst();
// A link the clock took whole is written again in its own form; one with errors stays as it came.
if (new URLSearchParams(location.search).has("clock.game") && !linkRefused) writeUrl();
setInterval(update, 250);
el.dataset.ready = "true"; // taps from now on are heard (tests wait for this)
