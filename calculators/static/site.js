// Links that organisers paste: copy a rule's absolute URL, keep the anchor (and the
// calculator's fields in the query) when switching language.

// The language menu points at the same page in each language: carry the query and the
// anchor along, so /fr/naruto/#naruto-reserve-limits becomes /it/naruto/#naruto-reserve-limits.
function updateLanguageLinks() {
  for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
    const target = new URL(link.getAttribute("href"), location.href);
    target.search = location.search;
    target.hash = location.hash;
    link.href = target.href;
  }
}
updateLanguageLinks();
addEventListener("hashchange", updateLanguageLinks);
addEventListener("calc:url", updateLanguageLinks);

let toast = null;
function announce(text) {
  if (!toast) {
    toast = document.createElement("p");
    toast.className = "link-toast";
    toast.setAttribute("role", "status");
    document.body.append(toast);
  }
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { toast.hidden = true; }, 4000);
}

// A tap or click on a heading's or rule's link control copies its absolute URL.
document.addEventListener("click", async (event) => {
  const link = event.target.closest("a.rule-link, a.headerlink");
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  const url = new URL(link.getAttribute("href"), location.href);
  url.search = "";
  history.replaceState(null, "", url.hash);
  updateLanguageLinks();
  try {
    await navigator.clipboard.writeText(url.href);
  } catch {
    // No clipboard permission: the address bar now holds the link, ready to share.
  }
  announce(link.dataset.copied.replace("{url}", url.href));
});
