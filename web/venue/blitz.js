// The blitz action timer (sitebuild/venue.py renders it). One large button restarts the
// action count; when the rules' "about N seconds" are up it says so, beeps once and shows the
// overrun, and leaves the warning to the judge. Warnings per player are kept in the page URL
// (?blitz.a=1), so a reload loses none; at the rules' number of warnings it states that the
// player loses the game, with the rule's link. Its numbers (rules_core) and words (the venue
// catalog) are in the page's data block (page-data.js); those naming a player are written per
// player, the label already in them (sitebuild/contract.py).
// State for tests and tools: data-blitz-state (idle | running | over) on the element, and
// data-ready once this script listens.
import { limit, word } from "../shared/page-data.js";
import { signal } from "./signal.js";
import { fill, replaceQuery, showList, twice } from "../shared/share.js";
import { readBlitzLink } from "./input.js";

const el = document.querySelector(".blitz-timer");
const seconds = limit("blitz.seconds");
const lose = limit("blitz.warnings_lose");
const count = el.querySelector(".blitz-count");
const status = el.querySelector(".blitz-signal");
const lost = el.querySelector(".blitz-lost");
const players = [...el.querySelectorAll(".blitz-player")];
const linkErrors = el.querySelector(".blitz-link-errors");
let actionStart = null;

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text; // no re-announcement of the same words
}

function tick() {
  if (actionStart === null) return;
  const elapsed = Date.now() - actionStart;
  const limit = seconds * 1000;
  if (elapsed < limit) {
    el.dataset.blitzState = "running";
    setText(count, fill(word("blitz.left"), { seconds: Math.ceil((limit - elapsed) / 1000) }));
    return;
  }
  if (el.dataset.blitzState !== "over") {
    el.dataset.blitzState = "over";
    setText(status, fill(word("blitz.over"), { seconds }));
    signal(el, "action", 1);
  }
  setText(count, fill(word("blitz.overrun"), { over: Math.floor((elapsed - limit) / 1000) }));
}

function showWarnings() {
  let loser = null;
  for (const player of players) {
    const warnings = Number(player.dataset.warnings);
    setText(player.querySelector(".blitz-warnings"), fill(word("blitz.count")[player.dataset.player], { count: warnings }));
    player.querySelector('[data-action="undo"]').disabled = warnings === 0;
    player.querySelector('[data-action="warn"]').disabled = warnings >= lose;
    if (warnings >= lose && !loser) loser = player;
  }
  lost.hidden = !loser;
  setText(lost.querySelector(".blitz-lost-text"), loser ? fill(word("blitz.lost")[loser.dataset.player], { count: lose }) : "");
}

function writeUrl() {
  const params = new URLSearchParams(location.search);
  for (const player of players) {
    const key = `blitz.${player.dataset.player}`;
    if (player.dataset.warnings === "0") params.delete(key);
    else params.set(key, player.dataset.warnings);
  }
  replaceQuery(params); // the language menu keeps the warnings
}

el.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (!button) return;
  if (button.dataset.action === "tap") {
    actionStart = Date.now();
    el.dataset.blitzState = "running";
    setText(status, "");
    tick();
    return;
  }
  const player = button.closest(".blitz-player");
  const warnings = Number(player.dataset.warnings) + (button.dataset.action === "warn" ? 1 : -1);
  player.dataset.warnings = String(Math.min(lose, Math.max(0, warnings)));
  showWarnings();
  writeUrl();
});

// Warnings from a link, with the typed fields' grammar: a count that is not 0 to the rules' number
// is an error naming the player (none counted for them), never clamped into range.
const linked = new URLSearchParams(location.search);
const link = readBlitzLink(linked, players.map((p) => p.dataset.player), lose, limit("blitz.max_length"));
for (const player of players) player.dataset.warnings = String(link.warnings[player.dataset.player]);
showList(linkErrors, [...link.errors.map(({ player, error, params }) => {
  return fill(word(`error.${error}`), { label: word("blitz.warnings.label")[player], ...params });
}), ...twice(linked, "blitz.")]);
// On the clock the timer shows only in a blitz game: its link's errors go with the clock's, in view
// whatever the game (README: a link's errors are never hidden).
document.querySelector(".clock-link-errors")?.after(linkErrors);
showWarnings();
setInterval(tick, 250);
el.dataset.ready = "true"; // taps from now on are counted (tests wait for this)
