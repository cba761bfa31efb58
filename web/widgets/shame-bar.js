// The shame tracker's always-visible bar (shame-tracker.js mounts it): the verdict's facts first, in a
// line ("Out: Ben · If the library runs out: Dev · limit 8"), then its whole summary; two lines until
// tapped, then all of it (tapped again: two lines). Its words are the page's data block's; its facts
// are the verdict's (no rule here).

import { word } from "../shared/page-data.js";
import { fill } from "../shared/share.js";

// `bar`: the build's .shame-bar; `playerWord`: "Player {n}", the label of a player with no name.
// Returns show(verdict): the bar says what that verdict says.
export function mountBar(bar, playerWord) {
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
  // A name another player also has is told apart by its label, as the verdict's sentences do: the
  // verdict says which (result.told_apart, calculators/players.py sharing_a_name).
  const nameOf = (result, n) => {
    const name = (result.names?.[n - 1] || "").trim();
    if (!name) return fill(playerWord, { n });
    return result.told_apart?.includes(n) ? fill(word("player.same_name"), { name, label: fill(playerWord, { n }) }) : name;
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
  return function show(verdict) {
    barFacts.textContent = verdict.ok ? facts(verdict.result) : "";
    barText.textContent = verdict.ok ? verdict.summary : verdict.errors.map((error) => error.message).join(" ");
  };
}
