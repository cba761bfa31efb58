// The round clock's address: its whole state is in the page URL (?clock.game=…&clock.end=…), read
// from a link with the typed fields' grammar (venue/input.js) and written back on every change.
import { word } from "../shared/page-data.js";
import { fill, replaceQuery, showList, twice } from "../shared/share.js";
import { parseWhole, readClockLink } from "./input.js";
import { LIMITS, chosen, clock, el, extForm, gameError, gameLabel, gameLegend, minutesInput, radios, roundInput, roundsInput } from "./clock-parts.js";
import { messageFor, readRound, showError } from "./clock-fields.js";

const linkErrors = el.querySelector(".clock-link-errors");

// The link's values; those the clock cannot take are listed with their errors and left in the
// address as they were until the organiser acts (a reload or a language switch shows them again).
export function readUrl() {
  const params = new URLSearchParams(location.search);
  const link = readClockLink(params, LIMITS, Date.now());
  const known = params.has("clock.game") || link.end !== null || link.left !== null;
  for (const radio of radios()) radio.checked = known ? radio.value === link.game : radio.defaultChecked;
  minutesInput.value = link.minutes;
  roundInput.value = link.round;
  roundsInput.value = link.rounds;
  clock.view = link.view;
  extForm.elements.table.value = link.table;
  extForm.elements.extra.value = link.extra;
  clock.end = link.end;
  clock.left = link.left;
  clock.extensions = link.extensions.sort((a, b) => a.table - b.table);
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

export function writeUrl() {
  const params = new URLSearchParams(location.search);
  for (const key of [...params.keys()]) if (key.startsWith("clock.")) params.delete(key);
  if (chosen()) params.set("clock.game", chosen().value);
  // Typed values go in as typed, valid or not: nothing entered is lost on reload or language switch.
  if (minutesInput.value.trim()) params.set("clock.minutes", minutesInput.value); // kept while blitz is tried
  if (roundInput.value.trim()) params.set("clock.round", roundInput.value);
  if (roundsInput.value.trim()) params.set("clock.rounds", roundsInput.value);
  if (clock.view) params.set("clock.view", clock.view);
  if (clock.end !== null) params.set("clock.end", String(clock.end));
  if (clock.left !== null) params.set("clock.left", String(clock.left));
  for (const { table, minutes } of clock.extensions) params.append("clock.ext", `${table}:${minutes}`);
  if (extForm.elements.table.value.trim()) params.set("clock.table", extForm.elements.table.value);
  if (extForm.elements.extra.value.trim()) params.set("clock.extra", extForm.elements.extra.value);
  replaceQuery(params); // the language menu keeps the clock
}

// The clock's own link: the round only (not the calculators' fields, nor a half-typed extension),
// so that its QR code stays small enough to scan from across a table.
const SHARED = ["clock.game", "clock.minutes", "clock.round", "clock.rounds", "clock.end", "clock.left", "clock.ext", "clock.view"];
export function link() {
  const url = new URL(location.pathname, location.href);
  const params = new URLSearchParams(location.search);
  for (const key of SHARED) for (const value of params.getAll(key)) url.searchParams.append(key, value);
  return url.href;
}
