// Offline use, on every page: registers the service worker (site root, whole-site scope), asks it
// to check the offline copy (and to complete it: the engine is fetched in the background) once this
// page has loaded, says at the top of the page whether the phone is ready for a hall with no
// signal, and shows a small "new version — reload" prompt when a new release is installed and waiting.
// Words come from the build (the page's data block, page-data.js).
// State for tests and assistive tech: <html data-offline="ready"> once this page's check found
// everything stored and the build's, "incomplete" once a try to store it fell short or a stored
// file was found missing or damaged; data-offline-storage="full" while the phone's storage refuses
// the copy; data-offline-why="host" | "network" when a try to make it failed on one or the other.
import { word } from "../shared/page-data.js";

const root = new URL("../../", import.meta.url);
const html = document.documentElement;
// The last state a check gave, on this phone: the top line says it until this page's check says
// otherwise (a saved phone does not flash "saving…" on every page).
const REMEMBERED = "offline-state";
// While the page is shown, the copy is checked again this often: a copy removed under an open page
// (site data cleared, storage pressure) stops being called saved within a minute. Each check wakes
// the service worker (which reads its caches' lists): every 10 s kept it running for as long as a
// judge's phone showed a page; the moments that matter (shown again, focus, network) check at once.
const RECHECK_MS = 60_000;
// A first install that has neither ended nor failed by then (a request left unanswered) is said to
// have failed on the network (share.js STALL_MS, not imported: this script depends on no other).
const INSTALL_WAIT_MS = 30_000;

function prompt(waiting) {
  if (document.querySelector(".offline-update")) return;
  const box = document.createElement("div");
  box.className = "offline-update";
  box.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = word("ui.offline.update");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = word("ui.offline.reload");
  button.addEventListener("click", () => {
    button.disabled = true;
    // Reload once the new release controls this page: every file then comes from it.
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
    waiting.postMessage({ type: "skip-waiting" });
  });
  box.append(text, " ", button);
  document.body.append(box);
}

function watchForUpdates(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) prompt(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing.addEventListener("statechange", () => {
      // With no controller this is the first install, not an update: nothing to announce.
      if (installing.state === "installed" && navigator.serviceWorker.controller) prompt(installing);
      // A first install that failed: not saved, said now (sw.js said why, if it could); the next
      // visit registers again.
      if (installing.state === "redundant" && !navigator.serviceWorker.controller && html.dataset.offline !== "ready") {
        setOffline("incomplete", html.dataset.offlineWhy || "network");
      }
    });
  });
}

// The page's offline state. `why`: "full" (the phone has no room for the copy: not the network's
// fault, every page and the calculators still come from it), "host" or "network" (a try to make it
// failed); a plain "incomplete" leaves what was said of the phone's storage as it was.
function setOffline(state, why = null) {
  html.dataset.offline = state;
  if (why === "full") html.dataset.offlineStorage = "full";
  else if (state === "ready") delete html.dataset.offlineStorage;
  if (why === "host" || why === "network") html.dataset.offlineWhy = why;
  else delete html.dataset.offlineWhy;
  try {
    localStorage.setItem(REMEMBERED, html.dataset.offlineStorage === "full" ? "full" : state);
  } catch {
    // no storage for it (private mode): the line starts from "saving…" on each page
  }
}

// The top line: "saved", "not saved" (and why), "no room", or "saving…" while nothing is known yet.
function showState() {
  const line = document.querySelector(".offline-state");
  if (!line) return;
  let remembered = null;
  try {
    remembered = localStorage.getItem(REMEMBERED);
  } catch {
    // as above
  }
  const { offline, offlineStorage, offlineWhy } = html.dataset;
  const state = offlineStorage === "full" ? "full" : offline ?? remembered;
  const notSaved = { host: "ui.offline.not_saved_host", network: "ui.offline.not_saved_network" }[offlineWhy];
  const key = { ready: "ui.offline.saved", full: "ui.offline.full", incomplete: notSaved ?? "ui.offline.not_saved" }[state]
    ?? "ui.offline.saving";
  if (line.textContent !== word(key)) line.textContent = word(key);
  line.classList.toggle("offline-saved", state === "ready");
}
showState();
// Whoever sets the state (this script, a test), the line follows it.
new MutationObserver(showState).observe(html, { attributeFilter: ["data-offline", "data-offline-storage", "data-offline-why"] });

async function start() {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    // "ready" only when every file is stored and the build's; "incomplete" when a fill failed or a
    // stored file was found missing or damaged (sw.js).
    if (data && data.type === "offline-ready") setOffline("ready");
    if (data && data.type === "offline-incomplete") setOffline("incomplete", data.why);
  });
  const registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.href });
  watchForUpdates(registration);
  // A first install that neither ends nor fails (a request left unanswered) is not waited on for good.
  const given = setTimeout(() => {
    if (!html.dataset.offline) setOffline("incomplete", "network");
  }, INSTALL_WAIT_MS);
  const ready = await navigator.serviceWorker.ready;
  clearTimeout(given);
  // The engine is fetched by the service worker, in the background, only after this page has
  // loaded: a page without a calculator loads no engine byte itself.
  const check = () => ready.active.postMessage({ type: "check-offline-copy" });
  check();
  // An engine that starts after a failed start (a retry, once the host answers right again): the
  // copy the failure left incomplete is completed now, not at the next visit.
  document.addEventListener("calc:engine", () => {
    if (html.dataset.offline !== "ready") check();
  });
  // The claim is checked again when it matters: the network gone or back (online, the copy is
  // completed), the phone taken out of a pocket, the window in front again, and now and then while
  // the page is shown (a stored file removed or damaged since withdraws it).
  addEventListener("offline", check);
  addEventListener("online", check);
  addEventListener("focus", check);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") check(); });
  setInterval(() => { if (document.visibilityState === "visible") check(); }, RECHECK_MS);
}

// After the page has loaded and, on a page with calculators, once their engine has started (or
// failed): installing fetches the whole site shell, which would compete with the engine's start.
const loaded = new Promise((resolve) => {
  if (document.readyState === "complete") resolve();
  else addEventListener("load", resolve, { once: true });
});
const engineSettled = new Promise((resolve) => {
  if (!document.querySelector(".calc[data-calc]")) resolve();
  else document.addEventListener("calc:engine", resolve, { once: true });
});

if ("serviceWorker" in navigator) {
  Promise.all([loaded, engineSettled])
    .then(start)
    .catch((error) => console.warn("offline use unavailable:", error));
}
