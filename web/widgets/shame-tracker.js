// Table-side tracker for judge-tower-shame: one row per player with large − and + buttons,
// a "first game" toggle (start at −1), add/remove player. The tracker writes its state into
// the calculator's `shame` textarea and fires an input event, so evaluate() stays the single
// source of truth; the verdict (calc:verdict) marks the rows that are out or leading and
// fills the always-visible bar with the limit and the leaders. State is kept in localStorage
// per page language, and kept in step across tabs; a shared link's game never replaces it unasked
// (below: `shared`). User text (names) only ever goes through
// .value / textContent. Its limits are the rules' (the page's data block, written by the build from
// rules_core); a shared link's text is read by Python, and the tracker takes the verdict's counters.

import { limit, word } from "../page-data.js";
import { fill } from "../share.js";

const STORAGE_VERSION = 1;

const blank = () => ({ name: "", mistakes: 0, first: false });
const isBlank = (player) => !player.name && !player.mistakes && !player.first;

export function mount(el) {
  const lang = el.dataset.lang;
  const rule = {
    minPlayers: limit("judge-tower-shame.min_players"), maxPlayers: limit("judge-tower-shame.max_players"),
    maxName: limit("judge-tower-shame.max_name"), maxCounter: limit("judge-tower-shame.max_counter"),
    firstGameStart: limit("judge-tower-shame.first_game_start"),
  };
  const counter = (player) => (player.first ? rule.firstGameStart : 0) + player.mistakes;
  // A stored state is used only if it has the exact shape the tracker writes.
  const valid = (players) => Array.isArray(players) && players.length >= rule.minPlayers &&
    players.length <= rule.maxPlayers && players.every((p) => p && typeof p.name === "string" &&
      p.name.length <= rule.maxName && Number.isInteger(p.mistakes) && p.mistakes >= 0 &&
      counter(p) <= rule.maxCounter && typeof p.first === "boolean");
  // "Player {n}", from the catalogs.
  const playerWord = word("judge-tower-shame.ui.player");
  const form = el.querySelector("form");
  const area = form.querySelector('textarea[name="shame"]');
  const storageKey = `rules-calc:${el.id}:${lang}`;
  // A shared link (calc.js filled the field from the URL) wins over the state stored on this phone:
  // its rows come with its first verdict; until then, and if it has an error, the text stays as typed.
  // A reload is no shared link: the stored state is this tab's latest (the address follows it only
  // once the verdict is shown), and it is written back into the field and the address.
  // A link value too long for the field (calc.js keeps it aside for Python and marks the field data-link-pending) is a
  // shared link too, and its error is what shows: never the stored players, whose verdict it is not.
  const reloaded = performance.getEntriesByType("navigation")[0]?.type === "reload";
  const stored = load();
  const refused = area.hasAttribute("data-link-pending");
  // A colleague's link opened on a phone that tracks a game of its own: the link's game is shown
  // and played in this tab only (kept in its session storage, for a reload); the phone's game stays
  // stored, and in its other tabs, until the judge chooses: back to it, or this game saved in its
  // place (DESIGN.md).
  const sharedKey = `${storageKey}:shared`;
  const sharedGame = reloaded ? load("sessionStorage", sharedKey) : null;
  const storedWins = Boolean(area.value.trim() && reloaded && stored && !sharedGame); // the address is then corrected
  let linked = !sharedGame && (refused || (Boolean(area.value.trim()) && !storedWins));
  let players = sharedGame || (linked ? null : stored) || Array.from({ length: rule.minPlayers }, blank);
  let shared = Boolean(sharedGame) || (linked && stored !== null && !stored.every(isBlank));

  // The tracker's markup is the build's (sitebuild/render.py): its first rows, and the row it copies
  // for each player added. Here it is only wired and filled in.
  const rows = el.querySelector(".shame-rows");
  const model = el.querySelector("template.shame-row-template").content.firstElementChild;
  const add = el.querySelector(".shame-add");
  const remove = el.querySelector(".shame-remove");
  const bar = el.querySelector(".shame-bar");

  // The game saved on this phone (or, from "sessionStorage", this tab's shared one).
  function load(kind = "localStorage", key = storageKey) {
    try {
      const saved = JSON.parse(window[kind].getItem(key) || "null");
      return saved && saved.version === STORAGE_VERSION && valid(saved.players) ? saved.players : null;
    } catch {
      return null; // storage unavailable or corrupt: start afresh
    }
  }

  // The verdict's reading of a shared link's text -> players (a counter below 0 is a first game).
  function fromVerdict({ counters, names }) {
    return counters.map((value, i) => {
      const first = value < 0;
      return { name: (names && names[i]) || "", mistakes: value - (first ? rule.firstGameStart : 0), first };
    });
  }

  function save() {
    try {
      const game = JSON.stringify({ version: STORAGE_VERSION, players });
      if (shared) sessionStorage.setItem(sharedKey, game); // never over the phone's own game
      else localStorage.setItem(storageKey, game);
    } catch {
      // storage full or disabled: the tracker still works for this visit
    }
  }

  // The calculator's input: one "Name: counter" line per player (commas would split a name).
  function write(initial = false) {
    area.value = players.map((p) => {
      const name = p.name.replace(/[,\r\n]/g, " ").trim();
      return name ? `${name}: ${counter(p)}` : String(counter(p));
    }).join("\n");
    save();
    // `initial`: the tracker filling the field at start-up is not a change to put in the page URL.
    area.dispatchEvent(new CustomEvent("input", { bubbles: true, detail: { initial } }));
  }

  function label(i) {
    return players[i].name.trim() || fill(playerWord, { n: i + 1 });
  }

  function refresh(row, i) {
    const player = players[i];
    row.setAttribute("aria-label", label(i));
    row.querySelector(".shame-value").textContent = String(counter(player)).replace("-", "−");
    row.querySelector(".shame-minus").disabled = player.mistakes <= 0;
    row.querySelector(".shame-plus").disabled = counter(player) >= rule.maxCounter;
  }

  // A copy of the model row, as row i.
  function newRow(i) {
    const row = model.cloneNode(true);
    const nameId = `${el.id}-player-${i + 1}`;
    const nameLabel = row.querySelector(".shame-name-label");
    nameLabel.htmlFor = nameId;
    nameLabel.textContent = fill(playerWord, { n: i + 1 });
    row.querySelector(".shame-name").id = nameId;
    return row;
  }

  // Row i shows players[i] and changes it.
  function setUp(row, i) {
    const name = row.querySelector(".shame-name");
    const first = row.querySelector(".shame-first input");
    name.value = players[i].name;
    first.checked = players[i].first;
    const change = (update) => {
      update(players[i]);
      refresh(row, i);
      write();
    };
    name.addEventListener("input", () => change((p) => { p.name = name.value.slice(0, rule.maxName); }));
    first.addEventListener("change", () => change((p) => { p.first = first.checked; }));
    row.querySelector(".shame-minus").addEventListener("click", () => change((p) => { p.mistakes = Math.max(0, p.mistakes - 1); }));
    row.querySelector(".shame-plus").addEventListener("click", () => change((p) => { if (counter(p) < rule.maxCounter) p.mistakes += 1; }));
    refresh(row, i);
    return row;
  }

  function settle(initial) {
    add.disabled = players.length >= rule.maxPlayers;
    remove.disabled = players.length <= rule.minPlayers;
    if (linked) return; // a shared link's text: kept as typed until its first verdict
    write(initial);
  }

  function rebuild(initial = false) {
    rows.replaceChildren(...players.map((_, i) => setUp(newRow(i), i)));
    settle(initial);
  }

  add.addEventListener("click", () => {
    if (players.length < rule.maxPlayers) players.push(blank());
    rebuild();
    rows.lastElementChild.querySelector(".shame-name").focus();
  });
  remove.addEventListener("click", () => {
    if (players.length > rule.minPlayers) players.pop();
    rebuild();
  });

  // The bar: the verdict's facts first, in a line ("Out: Ben · If the library runs out: Dev · limit 8"),
  // then its whole summary; two lines until tapped, then all of it (tapped again: two lines).
  const barFacts = bar.querySelector(".shame-facts");
  const barText = bar.querySelector(".shame-summary");
  const toggleBar = () => bar.setAttribute("aria-expanded", String(bar.getAttribute("aria-expanded") !== "true"));
  bar.addEventListener("click", toggleBar);
  bar.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggleBar();
    }
  });
  // A name typed for two players is told apart by each one's label, as the verdict's sentences do
  // (calculators/players.py told_apart): "Alice (Player 1), Alice (Player 2)".
  const compared = (name) => (name || "").trim().replace(/\s+/g, " ").toLowerCase();
  const nameOf = (result, n) => {
    const name = (result.names?.[n - 1] || "").trim();
    if (!name) return fill(playerWord, { n });
    const twice = result.names.filter((other) => compared(other) === compared(name)).length > 1;
    return twice ? fill(word("player.same_name"), { name, label: fill(playerWord, { n }) }) : name;
  };
  const listed = (result, numbers) => numbers.map((n) => nameOf(result, n)).join(", ");
  function facts(result) {
    return [
      result.eliminated.length ? fill(word("judge-tower-shame.ui.facts_out"), { names: listed(result, result.eliminated) }) : word("judge-tower-shame.ui.facts_none_out"),
      ...(result.winners_if_library_runs_out.length
        ? [fill(word("judge-tower-shame.ui.facts_library"), {
          names: listed(result, result.winners_if_library_runs_out), count: result.winners_if_library_runs_out.length,
        })] : []),
      fill(word("judge-tower-shame.ui.facts_limit"), { limit: result.limit }),
    ].join(" · ");
  }

  // The choice a shared link's game leaves to the judge, above the rows while it is shown.
  const choice = document.createElement("div");
  choice.className = "shame-shared";
  choice.setAttribute("role", "status");
  const choiceText = Object.assign(document.createElement("p"), { textContent: word("judge-tower-shame.ui.shared") });
  const back = Object.assign(document.createElement("button"), { type: "button", className: "md-button", textContent: word("judge-tower-shame.ui.back") });
  const keep = Object.assign(document.createElement("button"), { type: "button", className: "md-button", textContent: word("judge-tower-shame.ui.keep") });
  // What differs between the link's game and the one saved here, player by player: "save this game"
  // replaces the phone's counters, so the judge sees first which point it would drop.
  const differences = Object.assign(document.createElement("ul"), { className: "shame-differences" });
  choice.append(choiceText, differences, back, keep);
  rows.before(choice);

  function showDifferences() {
    const saved = load() || [];
    const lines = [];
    for (let i = 0; i < Math.max(players.length, saved.length); i++) {
      const [here, there] = [players[i], saved[i]];
      if (here && there && here.name === there.name && counter(here) === counter(there)) continue;
      const name = (here?.name || there?.name || "").trim() || fill(playerWord, { n: i + 1 });
      const value = (p) => (p ? String(counter(p)).replace("-", "−") : word("judge-tower-shame.ui.absent"));
      lines.push(fill(word("judge-tower-shame.ui.differs"), { name, shared: value(here), saved: value(there) }));
    }
    differences.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    differences.hidden = !lines.length;
  }

  function share(on) {
    shared = on;
    choice.hidden = !on;
    try {
      if (!on) sessionStorage.removeItem(sharedKey);
    } catch {
      // no session storage: nothing kept in it
    }
  }
  share(shared);
  keep.disabled = linked; // until the link's game is shown: there is nothing else to save
  back.addEventListener("click", () => {
    share(false);
    linked = false; // a verdict for the link still on its way no longer replaces the rows
    players = load() || players;
    rebuild();
  });
  keep.addEventListener("click", () => {
    share(false);
    write();
  });

  el.addEventListener("calc:verdict", ({ detail: verdict }) => {
    if (linked) {
      linked = false;
      if (verdict.ok) {
        players = fromVerdict(verdict.result);
        // The phone's own game, linked to itself: nothing to choose.
        if (shared && JSON.stringify(players) === JSON.stringify(load())) share(false);
        keep.disabled = false;
        rebuild(true); // rows for the link's counters; the text rewritten as the tracker writes it
        if (shared) {
          showDifferences();
          // In view, after the page has brought the verdict there (the link's #calc…): a choice above
          // the screen went unseen.
          requestAnimationFrame(() => choice.scrollIntoView({ block: "nearest" }));
        }
        return; // its verdict follows
      }
    }
    if (!verdict.ok) {
      barFacts.textContent = "";
      barText.textContent = verdict.errors.map((error) => error.message).join(" ");
      return;
    }
    barFacts.textContent = facts(verdict.result);
    barText.textContent = verdict.summary;
    if (verdict.result.players !== rows.children.length) return; // a newer verdict is on its way
    const { eliminated, winners_if_library_runs_out: winners } = verdict.result;
    [...rows.children].forEach((row, i) => {
      const isOut = eliminated.includes(i + 1);
      row.classList.toggle("is-out", isOut);
      row.classList.toggle("is-leader", winners.includes(i + 1));
      row.dataset.out = String(isOut);
      row.querySelector(".shame-out-badge").hidden = !isOut;
      row.querySelector(".shame-status").textContent = verdict.details[i] || "";
    });
  });

  // The same tracker open in another tab of this phone: take its change, so neither tab's reload
  // silently drops the other's counters.
  addEventListener("storage", (event) => {
    if (event.key !== storageKey || shared) return; // a shared link's game is not the phone's
    const stored = load();
    if (!stored) return;
    players = stored;
    rebuild();
  });

  // The build's rows, when there are as many players; otherwise rows for the stored state.
  if (rows.children.length === players.length) {
    // What the judge typed in the build's rows before this script arrived is theirs: kept, never
    // replaced by the blank or stored state (a name typed at once was lost; a shared link still wins).
    if (!linked) {
      [...rows.children].forEach((row, i) => {
        const typed = row.querySelector(".shame-name").value.slice(0, rule.maxName);
        if (typed) players[i] = { ...players[i], name: typed };
      });
    }
    [...rows.children].forEach((row, i) => setUp(row, i));
    settle(!storedWins);
  } else {
    rebuild(!storedWins);
  }
}
