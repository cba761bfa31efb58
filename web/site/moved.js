// An old link to a rule that was renamed or removed (texts/moved.json; markup: sitebuild/rule_markup.py):
// open its successor, highlighted as any linked rule, with a line saying it moved; or say it was
// removed, with a link to the changes page. The moves and the words are the build's (the words in the
// page's data block, sitebuild/contract.py).
import { word } from "../shared/page-data.js";

const data = document.querySelector(".rule-moves");
const moves = JSON.parse(data.dataset.moves);

function note(text) {
  document.querySelector(".rule-moved")?.remove();
  const line = Object.assign(document.createElement("p"), { className: "rule-moved", textContent: text });
  line.setAttribute("role", "status");
  return line;
}

function follow() {
  let id;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return; // no valid percent-encoding: names no rule
  }
  if (!id || document.getElementById(id) || !Object.hasOwn(moves, id)) return;
  const successor = moves[id] && document.getElementById(moves[id]);
  if (successor) {
    (successor.closest(".og-pair") ?? successor).before(note(word("ui.moved.here")));
    location.replace(`#${successor.id}`); // :target highlights it; the language menu follows (hashchange)
    return;
  }
  const line = note(word("ui.moved.removed") + " ");
  line.append(Object.assign(document.createElement("a"), { href: data.dataset.changes, textContent: word("ui.moved.changes") }));
  document.querySelector("article h1")?.after(line);
  line.scrollIntoView();
}

follow();
addEventListener("hashchange", follow);
