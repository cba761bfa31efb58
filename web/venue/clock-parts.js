// The round clock's elements, its state and the reads of both that its modules share (web/venue/clock.js
// and its clock-*.js modules: typed fields, the address, extensions, wake lock, room display).
import { limit } from "../shared/page-data.js";

export const el = document.querySelector(".clock");
export const setup = el.querySelector(".clock-setup");
export const extForm = el.querySelector(".clock-ext-form");
export const digits = el.querySelector(".clock-digits");
export const gameError = setup.querySelector('[data-field="game"] .calc-error');
export const minutesInput = setup.elements.minutes;
export const roundInput = setup.elements.round;
export const roundsInput = setup.elements.rounds;
export const MINUTE = 60_000;
export const clockTime = new Intl.DateTimeFormat(el.dataset.lang, { hour: "2-digit", minute: "2-digit" });

// The round's state, in one object: its fields are assigned by the clock's modules.
export const clock = {
  end: null, // epoch ms while running (or after time), else null
  left: null, // ms left while paused, else null
  extensions: [], // [{table, minutes}], each ending `minutes` after the round
  view: null, // "room": the room display (clock.view=room), else the page's own layout
};

export const radios = () => [...setup.querySelectorAll("input[name=game]")];
// The game played, or null: a link named a game the clock does not know (its error says so).
export const chosen = () => radios().find((r) => r.checked) || null;
export const gameLabel = (radio) => radio.closest("label").textContent;
export const gameLegend = () => setup.querySelector('[data-field="game"] legend').textContent;
export const fixedMinutes = () => Number(chosen()?.dataset.fixed) || null; // the rules' length (blitz) or none
export const LIMITS = {
  games: radios().map((radio) => radio.value), maxMinutes: limit("clock.max_minutes"),
  maxExtension: limit("clock.max_extension"), maxTable: limit("clock.max_table"), maxExtensions: limit("clock.max_extensions"),
  maxAheadMinutes: limit("clock.max_ahead_minutes"), maxLength: limit("clock.max_length"), maxRound: limit("clock.max_round"),
  views: limit("clock.views"),
};
export const button = (action) => el.querySelector(`[data-action="${action}"]`);

export function state(now = Date.now()) {
  if (clock.left !== null) return "paused";
  if (clock.end === null) return "idle";
  return now < clock.end ? "running" : "time";
}

// When the round ends, as far as extensions are concerned (null: not started).
export function roundEnd(now) {
  if (clock.end !== null) return clock.end;
  return clock.left !== null ? now + clock.left : null;
}

// Text nodes are replaced only when their words change: a live region is not re-announced
// four times a second, and a focused button is not swapped under the keyboard.
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function remaining(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${String(m).padStart(2, "0")}:${s}`;
}
