// Whether the page scrolls sideways in this window: "" when it does not, else
// how much wider it is and the outermost elements that stick out on the right.
// Used by test_every_page_browser.py.
() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth <= width) return "";
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1) continue;
    if (el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1) continue;
    const style = getComputedStyle(el);
    if (style.position === "fixed") continue;
    const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
    out.push(`${name} (right edge ${Math.round(box.right)}px)`);
    if (out.length >= 5) break;
  }
  return `${root.scrollWidth}px in a ${width}px window; ${out.join(", ")}`;
}
