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

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3; // Material's message types
let language = null; // {stop, stem, separator} once the index is set up
const ask = (data) => new Promise((resolve) => {
  replied = resolve;
  for (const fn of listeners) fn({ data });
}).finally(() => { replied = null; });

// How many letters `a` and `b` begin with alike.
const shared = (a, b) => { let n = 0; while (n < a.length && a[n] === b[n]) n += 1; return n; };

// "Combien de cartes en sideboard" -> ["cart", "sideboard"]: the words lunr would index, stemmed.
function contentWords(query) {
  const { stop, stem, separator, questionWords } = language;
  return query.toLowerCase().split(separator).filter(Boolean)
    .filter((word) => stop(new lunr.Token(word)) !== undefined && !questionWords.has(word))
    // What the word and its stem begin with (a stem may end otherwise: "penalty" -> "penalti", it "é"
    // -> "è"); 4 letters at least of a longer word (it "copie" -> "cop" found "coperte"; "wins" -> "win").
    .map((word) => word.slice(0, Math.max(shared(word, stem(new lunr.Token(word)).toString()), Math.min(4, word.length - 1))))
    .filter(Boolean);
}

// The sections holding a word beginning with `prefix`, counted on the index as set up.
const held = (prefix) => language.sections.filter((words) => words.some((word) => word.startsWith(prefix))).length;

async function search(query) {
  if (/[+\-~^:*"]/.test(query)) return ask({ type: QUERY, data: query }); // lunr's own syntax: as typed
  let words = contentWords(query);
  if (!words.length) return { type: RESULT, data: { items: [] } }; // only function words: nothing to find
  // A word most sections hold ("carte" on a card game's site) tells none apart: asked only alone.
  const rare = words.filter((word) => 2 * held(word) <= language.sections.length);
  if (rare.length) words = rare;
  const reply = await ask({ type: QUERY, data: words.join(" ") });
  // Sections holding more of the words first, then Material's score (whose title boost made a
  // heading's one common word outrank a section holding every word), less the bonus Material gives
  // a page's own entry (1 + g² with g = 1 + share of words held, for a section g = share: a page
  // heads its group, but its title outranked a section's title saying the same word); grouped by page again.
  const count = (item) => Object.values(item.terms).filter(Boolean).length;
  const share = (item) => count(item) / Math.max(1, Object.keys(item.terms).length);
  const score = (item) => (item.location.includes("#") ? item.score : item.score * (1 + share(item) ** 2) / (1 + (1 + share(item)) ** 2));
  const sorted = reply.data.items.flat().sort((a, b) => count(b) - count(a) || score(b) - score(a));
  const pages = new Map();
  for (const item of sorted) {
    const page = item.location.split("#")[0];
    pages.set(page, [...(pages.get(page) || []), item]);
  }
  return { ...reply, data: { ...reply.data, items: [...pages.values()] } };
}

// A section's words as lunr indexes them (lower case, tags aside), every field.
const sectionWords = (doc, separator) => Object.entries(doc).filter(([key]) => key !== "location" && typeof doc[key] === "string")
  .flatMap(([, text]) => text.replace(/<[^>]+>/g, " ").toLowerCase().split(separator)).filter(Boolean);

// Material's setup (its index), kept until a question needs it: building the index (lunr, and the
// language's stemmer loaded) took ~0.1 s of a desktop's CPU on every page view, several times that on a
// phone, and most views never search. Material is told at once that search is ready; the first query
// builds the index, then is answered (notes/test-speed.md: what a page view costs).
let setup = null;
async function indexed() {
  if (!setup) return;
  const { data } = setup;
  setup = null;
  await ask({ type: SETUP, data });
  const lang = data.config.lang[0];
  const rules = lang === "en" ? lunr : lunr[lang];
  const { question_words: questionWords = [] } = data.config;
  const separator = new RegExp(data.config.separator);
  language = { stop: rules.stopWordFilter, stem: rules.stemmer, separator,
    questionWords: new Set(questionWords), sections: data.docs.map((doc) => sectionWords(doc, separator)) };
}

let queue = Promise.resolve();
listen("message", ({ data }) => {
  queue = queue.then(async () => {
    if (data.type === SETUP) {
      setup = data;
      post({ type: READY });
      return;
    }
    // Material asks the empty field once search is ready: no index needed to find nothing.
    if (data.type === QUERY && !data.data.trim()) return post({ type: RESULT, data: { items: [] } });
    await indexed();
    post(await (data.type === QUERY && language ? search(data.data) : ask(data)));
  });
});
