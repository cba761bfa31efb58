// The round clock's typed fields (the length, the round and the total, a table's extension): each
// value read with the grammar of venue/input.js, its localized error naming the field shown in the
// field's box, and the field marked invalid while it shows.
import { word } from "../shared/page-data.js";
import { fill, labelText } from "../shared/share.js";
import { parseWhole } from "./input.js";
import { LIMITS, el, roundInput, roundsInput } from "./clock-parts.js";

export function labelOf(input) {
  return labelText(el.querySelector(`label[for="${input.id}"]`));
}

// A message in a field's error box (empty: none); the field says it is invalid while it shows.
export function showError(box, message) {
  box.textContent = message;
  box.hidden = !message;
  const control = box.closest(".calc-field").querySelector("input[type=text]"); // not the game's radios
  if (control && message) control.setAttribute("aria-invalid", "true");
  else control?.removeAttribute("aria-invalid");
}

// The field's whole number, or null after showing the localized error naming the field.
// `required` is false while typing: an empty field is not an error until it is needed.
export function check(input, maximum, required = true) {
  return show(input, parseWhole(input.value, 1, maximum, LIMITS.maxLength), required);
}

// The localized error of `parsed` (parseWhole's answer for `input`), naming the field, or "".
export function messageFor(input, parsed, required) {
  const label = labelOf(input);
  if (parsed.empty) return required ? fill(word("error.required"), { label }) : "";
  return parsed.error ? fill(word(`error.${parsed.error}`), { label, ...parsed.params }) : "";
}

// `parsed` (parseWhole's answer for `input`) shown in the field's error box; its number or null.
export function show(input, parsed, required) {
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
export function readRound() {
  const rounds = parseWhole(roundsInput.value, 1, LIMITS.maxRound, LIMITS.maxLength);
  const round = parseWhole(roundInput.value, 1, rounds.value ?? LIMITS.maxRound, LIMITS.maxLength);
  return { round, rounds, missing: Boolean(rounds.value) && Boolean(round.empty) };
}

// readRound() shown in the fields' error boxes: {round, rounds} when valid (each may be null), else null.
// `required` is false while typing: a total without a number yet is not an error until the round starts.
export function checkRound(required = true) {
  const { round, rounds, missing } = readRound();
  show(roundsInput, rounds, false);
  show(roundInput, round, required && missing);
  return round.error || rounds.error || (required && missing) ? null : { round: round.value ?? null, rounds: rounds.value ?? null };
}

// "Round 3 of 5" for the face and the room display, or "" while the fields say no valid round.
export function roundText() {
  const { round, rounds } = readRound();
  if (rounds.error || !round.value) return "";
  return fill(rounds.value ? word("clock.round.show_of") : word("clock.round.show"), { round: round.value, rounds: rounds.value });
}
