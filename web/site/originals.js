// The page-level control of a translated page's originals (markup: sitebuild/originals.py). Each
// rule's own <details> needs no script; this one button opens or closes them all, side by side on a
// wide screen (CSS), and ?original=1 in the address (a pasted link) opens them all on arrival,
// ?original=<rule id> that rule's alone.
import { replaceQuery } from "../shared/share.js";

const button = document.querySelector(".og-all");
const article = button.closest("article");

function showAll(on) {
  for (const original of article.querySelectorAll("details.og")) original.open = on;
  article.classList.toggle("og-shown", on); // the button's "hide all" shows instead of its "show all" (CSS)
}

// The address says so, and the language menu follows it (share.js replaceQuery).
function keepInAddress(on) {
  const params = new URLSearchParams(location.search);
  if (on) params.set("original", "1");
  else params.delete("original");
  replaceQuery(params);
}

button.addEventListener("click", () => {
  const on = !article.classList.contains("og-shown");
  showAll(on);
  keepInAddress(on);
});

const asked = new URLSearchParams(location.search).get("original");
if (asked === "1") {
  showAll(true);
  // The rule a link points at moved down as the originals above it opened.
  // A fragment that is no valid percent-encoding (#%zz) names no rule: nothing to scroll to.
  let id = null;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    // URIError
  }
  if (id) document.getElementById(id)?.scrollIntoView();
} else if (asked) {
  // ?original=<rule id> (a rule's copy control, site.js): that one original open, as it was shared.
  const original = document.querySelector(`details.og[data-for="${CSS.escape(asked)}"]`);
  if (original) original.open = true;
}
