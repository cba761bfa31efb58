// The search worker the pages start (overrides/main.html): Material's own, given queries read the way
// each language's lunr-languages reads its index (the stop words and stemmer of lunr.fr, lunr.it,
// loaded by Material's worker for the index's `lang`). Material sends a query to lunr as typed, each
// word a prefix (a wildcard skips lunr's pipeline): "de" matched every "de…" word, "cartes" no
// "carte". Here each word is dropped if it is a stop word, else cut to its stem (a prefix of the
// words it stands for), and the sections holding more of those words are listed first.
"use strict";
// Material's worker file, whose name carries its release's hash: the build names it (overrides/main.html).
const MATERIAL = `../../assets/javascripts/workers/${new URL(self.location.href).searchParams.get("material")}`;

// Material's worker loads lunr-languages from "../lunr" beside itself: from here (calc/site/), its own folder.
const load = self.importScripts.bind(self);
self.importScripts = (...urls) => load(...urls.map((url) => url.replace(/^\.\.\/lunr\//, "../../assets/javascripts/lunr/")));
// Its message listener and replies, taken so that a query can be asked twice and the answers merged.
const listeners = [];
const listen = self.addEventListener.bind(self);
self.addEventListener = (type, fn, ...rest) => (type === "message" ? listeners.push(fn) : listen(type, fn, ...rest));
const post = self.postMessage.bind(self);
let replied = null;
self.postMessage = (message) => (replied ? replied(message) : post(message));
load(MATERIAL);

const SETUP = 0, QUERY = 2; // Material's message types
let language = null; // {stop, stem, separator} once the index is set up
const ask = (data) => new Promise((resolve) => {
  replied = resolve;
  for (const fn of listeners) fn({ data });
}).finally(() => { replied = null; });

// "Combien de cartes en sideboard" -> ["cart", "sideboard"]: the words lunr would index, stemmed.
function contentWords(query) {
  const { stop, stem, separator } = language;
  return query.toLowerCase().split(separator).filter(Boolean)
    .filter((word) => stop(new lunr.Token(word)) !== undefined)
    // A stem that is no prefix of its word (Italian's writes "é" as "è") would find nothing: the word.
    .map((word) => { const cut = stem(new lunr.Token(word)).toString(); return word.startsWith(cut) ? cut : word; })
    .filter(Boolean);
}

async function search(query) {
  if (/[+\-~^:*"]/.test(query)) return ask({ type: QUERY, data: query }); // lunr's own syntax: as typed
  const words = contentWords(query);
  if (!words.length) return { type: 3, data: { items: [] } }; // only function words: nothing to find
  const reply = await ask({ type: QUERY, data: words.join(" ") });
  // Sections holding more of the words first, then Material's score (whose title boost made a
  // heading's one common word outrank a section holding every word); grouped by page again.
  const held = (item) => Object.values(item.terms).filter(Boolean).length;
  const sorted = reply.data.items.flat().sort((a, b) => held(b) - held(a) || b.score - a.score);
  const pages = new Map();
  for (const item of sorted) {
    const page = item.location.split("#")[0];
    pages.set(page, [...(pages.get(page) || []), item]);
  }
  return { ...reply, data: { ...reply.data, items: [...pages.values()] } };
}

let queue = Promise.resolve();
listen("message", ({ data }) => {
  queue = queue.then(async () => {
    if (data.type === SETUP) {
      const reply = await ask(data);
      const lang = data.data.config.lang[0];
      const rules = lang === "en" ? lunr : lunr[lang];
      language = { stop: rules.stopWordFilter, stem: rules.stemmer, separator: new RegExp(data.data.config.separator) };
      post(reply);
    } else if (data.type === QUERY && language) {
      post(await search(data.data));
    } else {
      post(await ask(data));
    }
  });
});
