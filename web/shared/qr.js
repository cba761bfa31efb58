// The QR code dialog: the QR code of an absolute URL (made here by the self-hosted
// qrcode-generator, no network), what it points to, the URL as text; printable as a table card
// (site.css: print shows the code large, the title and the URL under it, nothing else).
// The <svg> carries data-qr-text, the exact text encoded, for tests and tools.
import { word } from "./page-data.js";
import qrcode from "../vendor/qrcode.mjs";

const SVG = "http://www.w3.org/2000/svg";
const QUIET_ZONE = 4; // modules of white around the code, as the QR specification asks

// The largest code another phone's scanner still read at 20 cm from this dialog's code on a phone
// screen (~44 mm wide), and at 50 cm from the printed table card (13 cm), in the simulation of
// tools/qr_scan.py (DESIGN.md, "Sharing"): ~1,000 characters of link. Past it, or past what a QR
// code holds at all, the dialog says so instead of showing a code nobody can scan.
const MAX_MODULES = 121;

// The code's modules, or null when the link is too long for a code a phone reads.
function qrCode(text) {
  const qr = qrcode(0, "M"); // smallest version that fits; medium error correction survives a crease
  qr.addData(text); // URLs are ASCII (percent-encoded), so byte mode is exact
  try {
    qr.make();
  } catch {
    return null; // "code length overflow": over what the largest QR code holds
  }
  return qr.getModuleCount() <= MAX_MODULES ? qr : null;
}

function qrSvg(qr, text, label) {
  const count = qr.getModuleCount();
  const size = count + 2 * QUIET_ZONE;
  let path = "";
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (qr.isDark(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("class", "qr-code");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.dataset.qrText = text;
  const background = document.createElementNS(SVG, "rect");
  background.setAttribute("width", size);
  background.setAttribute("height", size);
  background.setAttribute("class", "qr-light");
  const modules = document.createElementNS(SVG, "path");
  modules.setAttribute("d", path);
  modules.setAttribute("class", "qr-dark");
  svg.append(background, modules);
  return svg;
}

let dialog = null;

function build() {
  dialog = document.createElement("dialog");
  dialog.className = "qr-dialog md-typeset"; // Material's text and button styles
  dialog.setAttribute("aria-labelledby", "qr-dialog-title");
  const title = document.createElement("h2");
  title.id = "qr-dialog-title";
  title.textContent = word("ui.qr.title");
  const part = (tag, className) => Object.assign(document.createElement(tag), { className });
  const [figure, what, note, url, buttons] = [["div", "qr-figure"], ["p", "qr-what"], ["p", "qr-note"], ["p", "qr-url"],
    ["div", "qr-buttons"]].map(([tag, className]) => part(tag, className));
  const print = document.createElement("button");
  print.type = "button";
  print.className = "md-button md-button--primary";
  print.textContent = word("ui.qr.print");
  print.addEventListener("click", () => window.print());
  const close = document.createElement("button");
  close.type = "button";
  close.className = "md-button";
  close.textContent = word("ui.qr.close");
  close.addEventListener("click", () => dialog.close());
  buttons.append(print, close);
  dialog.append(title, figure, what, note, url, buttons);
  document.body.append(dialog);
}

// `note`: what the link leaves out (a field too long for a link), said under the code.
export function openQr(text, what, note = "") {
  if (!dialog) build();
  const qr = qrCode(text);
  const figure = dialog.querySelector(".qr-figure");
  if (qr) {
    figure.replaceChildren(qrSvg(qr, text, what || text));
  } else {
    figure.replaceChildren(Object.assign(document.createElement("p"), { className: "qr-too-long", textContent: word("ui.qr.too_long") }));
  }
  dialog.dataset.qr = qr ? "shown" : "too-long";
  dialog.querySelector(".qr-what").textContent = what;
  const said = dialog.querySelector(".qr-note");
  said.textContent = note;
  said.hidden = !note;
  // A link too long for a code is not printed nor spelled out (thousands of characters): it is copied.
  dialog.querySelector(".qr-url").textContent = qr ? text : "";
  dialog.querySelector(".qr-buttons .md-button--primary").hidden = !qr;
  if (!dialog.open) dialog.showModal();
}
