// Offline use, on every page: registers the service worker (site root, whole-site scope),
// asks it to keep the engine for offline use once this page has loaded, and shows a small
// "new version — reload" prompt when a new release is installed and waiting.
// Words come from the build (the page's data block, page-data.js).
// State for tests and assistive tech: <html data-offline="ready"> once everything is stored and
// matches the build, "incomplete" once a try to store it fell short or a stored file was found
// missing or damaged; data-offline-storage="full" while the phone's storage refuses the copy.
import { word } from "./page-data.js";

const root = new URL("../", import.meta.url);

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
    });
  });
}

// The page's offline state, said at the top of the page (overrides/main.html, "announce"): a judge
// can tell the phone is safe to take into a hall with no signal.
// `full`: the phone has no room for the copy, said too (not the network's fault: every page and
// the calculators still come from it); a plain "incomplete" leaves that as it was.
function setOffline(state, full = false) {
  const html = document.documentElement;
  html.dataset.offline = state;
  if (full) html.dataset.offlineStorage = "full";
  else if (state === "ready") delete html.dataset.offlineStorage;
  showState();
}

// The top line: "saved", "not saved" (or "no room"), or "saving" while nothing is known yet.
function showState() {
  const line = document.querySelector(".offline-state");
  if (!line) return;
  const { offline, offlineStorage } = document.documentElement.dataset;
  const key = offlineStorage === "full" ? "ui.offline.full"
    : { ready: "ui.offline.saved", incomplete: "ui.offline.not_saved" }[offline] ?? "ui.offline.saving";
  if (line.textContent !== word(key)) line.textContent = word(key);
  line.classList.toggle("offline-saved", offline === "ready" && offlineStorage !== "full");
}
showState();
// Whoever sets the state (this script, a test), the line follows it.
new MutationObserver(showState).observe(document.documentElement, { attributeFilter: ["data-offline", "data-offline-storage"] });

async function start() {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    // "ready" only when every file is stored and matches the build; "incomplete" when a fill
    // failed or a stored file was found damaged (sw.js).
    if (data && data.type === "offline-ready") setOffline("ready");
    if (data && data.type === "offline-incomplete") setOffline("incomplete", Boolean(data.full));
  });
  const registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.href });
  watchForUpdates(registration);
  const ready = await navigator.serviceWorker.ready;
  // The engine is fetched by the service worker, in the background, only after this page has
  // loaded: a page without a calculator loads no engine byte itself.
  ready.active.postMessage({ type: "cache-engine" });
  // An engine that starts after a failed start (a retry, once the host answers right again): the
  // copy the failure left incomplete is completed now, not at the next visit.
  document.addEventListener("calc:engine", () => {
    if (document.documentElement.dataset.offline !== "ready") ready.active.postMessage({ type: "cache-engine" });
  });
  // The claim is checked again when it matters: the network gone, the phone taken out of a pocket
  // (a stored file removed or damaged since withdraws it; online, the copy is completed).
  const recheck = () => ready.active.postMessage({ type: "cache-engine" });
  addEventListener("offline", recheck);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") recheck(); });
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
