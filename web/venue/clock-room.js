// The round clock's room display and phone layout.
import { button, clock, el } from "./clock-parts.js";
import { writeUrl } from "./clock-address.js";

// The room display: the clock alone on the whole screen, for a projector (clock.view=room). The
// element moves to the end of <body> (Material's page hidden behind it: no chrome, no scrolling)
// and back; full screen where the browser has it and a tap asked for it, a full window otherwise.
const home = document.createComment("clock");
// On the projected room display the controls go after a few seconds without a pointer, touch or
// key (they are on the image the hall sees), and come back with the next one.
const ROOM_IDLE_MS = 4_000;
let roomIdle = null;
function roomActivity() {
  if (clock.view !== "room") return;
  delete el.dataset.idle;
  clearTimeout(roomIdle);
  roomIdle = setTimeout(() => { if (clock.view === "room") el.dataset.idle = ""; }, ROOM_IDLE_MS);
}
for (const type of ["pointermove", "pointerdown", "keydown"]) document.addEventListener(type, roomActivity, { capture: true });

export function enterRoom(tapped) {
  if (!home.parentNode) el.before(home);
  document.body.append(el);
  el.classList.add("md-typeset"); // Material's typography, outside its article
  el.dataset.view = "room";
  document.documentElement.dataset.clockView = "room";
  el.querySelector(".clock-room-controls").hidden = false;
  button("fullscreen").hidden = !document.fullscreenEnabled;
  clock.view = "room";
  roomActivity();
  if (tapped) fullscreen(); // the click handler writes the address
}
export function fullscreen() {
  el.requestFullscreen?.().catch(() => {});
}
export function leaveRoom() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  home.replaceWith(el);
  el.classList.remove("md-typeset");
  delete el.dataset.view;
  delete document.documentElement.dataset.clockView;
  el.querySelector(".clock-room-controls").hidden = true;
  clearTimeout(roomIdle);
  delete el.dataset.idle;
  clock.view = null;
  writeUrl();
  button("room").focus();
}
document.addEventListener("fullscreenchange", () => {
  button("fullscreen").hidden = !document.fullscreenEnabled || document.fullscreenElement === el;
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && clock.view === "room" && !document.fullscreenElement && !document.querySelector("dialog[open]")) leaveRoom();
});

// A clock opened with a round under way (a shared link, a reload): the time comes first on a phone,
// above the page's introduction.
export function timeFirst() {
  document.querySelector(".md-content__inner > h1")?.after(el);
}
