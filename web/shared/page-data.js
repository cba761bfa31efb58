// The words and limits the build wrote for this page's scripts: one JSON block per page
// (<script id="page-data" type="application/json">, sitebuild/contract.py). A word's key is its
// catalog key ("clock.round.show_of"), a limit's the rule's name under its owner
// ("naruto-reserve.deck_ninja"): the same name on both sides, checked by tests/site/test_contract.py.
const block = JSON.parse(document.getElementById("page-data")?.textContent || '{"words": {}, "limits": {}}');

// A message template (fill it with share.js fill()); "" for a key the page has none of.
export const word = (key) => block.words[key] ?? "";
// A number (or list) of a rule or a tool's setting.
export const limit = (key) => block.limits[key];
