// Round planner chart: expected players per record (verdict.result.records) as an inline
// SVG bar chart, with a table as its text equivalent. Built with DOM calls only.
import { word } from "../shared/page-data.js";
import { fill } from "../shared/share.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A record as the catalog writes it ("{wins}–{losses}", naruto-rounds.ui.score).
const score = (words, record) => fill(words.score, { wins: record.wins, losses: record.losses });

// The estimate to a tenth, as the chart writes it: the bar's words then agree with the number shown
// ("1.5 players", « 1,5 joueur »), which fill() formats and counts.
const tenths = (players) => Number(players.toFixed(1));

function chart(records, format, words) {
  const row = 28;
  const labelWidth = 48;
  const width = 320;
  const most = Math.max(...records.map((r) => r.expected_players), 1);
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${records.length * row}`, width: "100%", role: "img", class: "records-chart",
    "aria-label": words.caption,
  });
  records.forEach((record, index) => {
    const y = index * row;
    const length = ((width - labelWidth - 60) * record.expected_players) / most;
    const group = svg("g", { class: `cut-${record.cut}` });
    group.append(svg("title", {}, fill(words.bar, { score: score(words, record), players: tenths(record.expected_players) })));
    group.append(svg("text", { x: 0, y: y + row * 0.68, class: "records-chart__label" }, score(words, record)));
    group.append(svg("rect", { x: labelWidth, y: y + 4, width: Math.max(length, 1), height: row - 8, rx: 3 }));
    group.append(svg("text", { x: labelWidth + length + 6, y: y + row * 0.68, class: "records-chart__value" },
      format(record.expected_players)));
    root.append(group);
  });
  return root;
}

function table(records, format, words) {
  const node = document.createElement("table");
  const head = node.createTHead().insertRow();
  for (const title of [words.record, words.players, words.cut]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.append(cell);
  }
  const body = node.createTBody();
  for (const record of records) {
    const line = body.insertRow();
    line.insertCell().textContent = score(words, record);
    line.insertCell().textContent = format(record.expected_players);
    line.insertCell().textContent = words[record.cut];
  }
  return node;
}

export function mount(el) {
  const figure = document.createElement("figure");
  figure.className = "records-figure";
  figure.hidden = true;
  el.querySelector(".calc-verdict").append(figure);
  // The link to a round clock for round 1 (built with the page), under the chart: "of N" with the
  // organiser's own count, else the minimum the rules give for these players.
  const clock = el.querySelector(".rounds-clock");
  figure.after(clock);
  const clockLink = clock.querySelector("a");
  // Made on the first verdict, not at page load, where it was the page's longest start-up task.
  let number = null;
  el.addEventListener("calc:verdict", ({ detail: verdict }) => {
    figure.replaceChildren();
    figure.hidden = !verdict.ok;
    clock.hidden = !verdict.ok;
    if (!verdict.ok) return;
    const url = new URL(clockLink.href);
    url.searchParams.set("clock.rounds", verdict.result.rounds);
    clockLink.href = url.href;
    clockLink.textContent = fill(word("naruto-rounds.ui.clock"), { rounds: verdict.result.rounds });
    number ??= new Intl.NumberFormat(el.dataset.lang, { maximumFractionDigits: 1 });
    const { records, rounds } = verdict.result;
    const words = {
      caption: fill(word("naruto-rounds.ui.caption"), { rounds }),
      record: word("naruto-rounds.ui.record"), players: word("naruto-rounds.ui.players"), cut: word("naruto-rounds.ui.cut"),
      in: word("naruto-rounds.ui.in"), partial: word("naruto-rounds.ui.partial"), out: word("naruto-rounds.ui.out"),
      score: word("naruto-rounds.ui.score"), bar: word("naruto-rounds.ui.bar"),
    };
    const caption = document.createElement("figcaption");
    caption.textContent = words.caption;
    figure.append(caption, chart(records, number.format, words), table(records, number.format, words));
  });
}
