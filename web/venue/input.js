// What the venue kit reads, typed or from a link: one grammar for every whole number (the
// calculators' own, calculators/spec.py Field.parse: an optional sign and digits, not too long,
// then the bounds), and one reader per tool for its link's parameters. No DOM here: clock.js
// and blitz.js turn the errors into their localized messages, and tests/unit/test_venue_input.py
// runs these functions under Node against Python's grammar. Every bound comes from the caller
// (the page's data block, written by the build from rules_core): no number of a rule is written here.

const INTEGER = /^[+\-\u2212]?[0-9]+$/;
// Python's str.strip() whitespace (str.isspace), so that a value means the same on both sides.
// eslint-disable-next-line no-control-regex -- \x1c-\x1f are whitespace to Python
const EDGE_SPACE = /^[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const MINUTE = 60_000;

// `text` as a whole number within [minimum, maximum]: {value}, {empty: true}, or {error, params}
// where `error` is a key of the common catalog (error.too_long, error.not_integer,
// error.out_of_range) and `params` fill its message (all but the label).
export function parseWhole(text, minimum, maximum, maxLength) {
  const typed = String(text ?? "").replace(EDGE_SPACE, "");
  const length = [...typed].length; // characters, as Python counts them
  if (!typed) return { empty: true };
  if (length > maxLength) return { error: "too_long", params: { length, limit: maxLength } };
  if (!INTEGER.test(typed)) return { error: "not_integer", params: { value: typed } };
  const number = BigInt(typed.replace("\u2212", "-")); // exact, however many digits
  if (number < BigInt(minimum) || number > BigInt(maximum)) {
    // written as calculators.i18n.Count writes a number read: a minus sign, however it was typed
    return { error: "out_of_range", params: { value: String(number).replace("-", "\u2212"), minimum, maximum } };
  }
  return { value: Number(number) };
}

// The round clock's link. `limits`: {games, views, maxMinutes, maxExtension, maxTable, maxExtensions,
// maxAheadMinutes, maxLength}. Returns what the link says that the clock can take — `game`
// (null when none or not valid), the typed fields as given (`minutes`, `round`, `rounds`, `table`,
// `extra`, checked as typed), `end`, `left`, `extensions`, `view` (null: the page's own) — and `errors`, one per value it cannot take:
// {key, params} with `key` a message of the venue catalog (clock.link.*) or, for the game,
// {field: "game", error, params} of the common catalog. Nothing is defaulted silently.
export function readClockLink(params, limits, now) {
  const errors = [];
  // A name given twice: the first value (the page says so: share.js twice()).
  const one = (name) => params.get(name);
  const link = { game: null, minutes: one("clock.minutes") ?? "", round: one("clock.round") ?? "",
                 rounds: one("clock.rounds") ?? "", table: one("clock.table") ?? "", extra: one("clock.extra") ?? "",
                 end: null, left: null, extensions: [], view: null, errors };
  const view = one("clock.view");
  if (view !== null && limits.views.includes(view)) link.view = view;
  else if (view !== null) errors.push({ key: "view", params: { value: clip(view, limits) } });

  const game = one("clock.game");
  const endText = one("clock.end");
  const leftText = one("clock.left");
  if (game !== null && limits.games.includes(game)) link.game = game;
  else if (game !== null) errors.push({ field: "game", error: "not_a_choice", params: { value: clip(game, limits) } });
  else if (endText !== null || leftText !== null) errors.push({ field: "game", error: "required", params: {} });

  // The round's end (epoch ms): any past instant (the round is over: "time"), and no later than the
  // longest round the clock accepts plus an extension, from now.
  const ahead = limits.maxAheadMinutes * MINUTE;
  if (endText !== null) {
    const end = parseWhole(endText, 0, now + ahead, limits.maxLength);
    if ("value" in end) link.end = end.value;
    else errors.push(timeError("end", end, endText, limits));
  }
  if (leftText !== null && endText !== null) errors.push({ key: "both", params: {} });
  else if (leftText !== null) {
    const left = parseWhole(leftText, 0, ahead, limits.maxLength);
    if ("value" in left) link.left = left.value;
    else errors.push(timeError("left", left, leftText, limits));
  }

  const given = params.getAll("clock.ext");
  for (const text of given.slice(0, limits.maxExtensions)) {
    const parts = text.split(":");
    const table = parseWhole(parts[0], 1, limits.maxTable, limits.maxLength);
    const minutes = parseWhole(parts[1], 1, limits.maxExtension, limits.maxLength);
    if (parts.length !== 2 || !("value" in table) || !("value" in minutes)) {
      errors.push({ key: "ext", params: { value: clip(text, limits), tables: limits.maxTable, minutes: limits.maxExtension } });
    } else if (link.extensions.some((ext) => ext.table === table.value)) {
      errors.push({ key: "ext_twice", params: { table: table.value } });
    } else {
      link.extensions.push({ table: table.value, minutes: minutes.value });
    }
  }
  if (given.length > limits.maxExtensions) {
    errors.push({ key: "ext_many", params: { count: given.length, maximum: limits.maxExtensions } });
  }
  return link;
}

// An end or time left that the clock cannot take: not a time at all, or beyond any round.
function timeError(name, parsed, text, limits) {
  const far = parsed.error === "out_of_range" && !parsed.params.value.startsWith("\u2212");
  return far
    ? { key: `${name}_far`, params: { maximum: limits.maxAheadMinutes } }
    : { key: name, params: { value: clip(text, limits) } };
}

// The blitz warnings of a link (`blitz.<player>`), each 0 to `lose`: {warnings: {player: n},
// errors: [{player, error, params}]} with common-catalog errors; a player whose value is not
// valid has none counted, and the error says so.
export function readBlitzLink(params, players, lose, maxLength) {
  const warnings = {};
  const errors = [];
  for (const player of players) {
    const parsed = parseWhole(params.get(`blitz.${player}`), 0, lose, maxLength);
    warnings[player] = parsed.value ?? 0;
    if (parsed.error) errors.push({ player, error: parsed.error, params: parsed.params });
  }
  return { warnings, errors };
}

// A value from a link as a message quotes it: whole up to the fields' length, then cut.
function clip(text, limits) {
  return text.length > limits.maxLength ? `${text.slice(0, limits.maxLength)}…` : text;
}
