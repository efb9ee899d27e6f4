// Every problem with the layout of the figure boxes matched by `selector`:
// a figure's text outside its box, two boxes or two figures over each other,
// the page wider than the window. Used by test_big_numbers_browser.py.
(selector) => {
  const problems = [];
  const r = (el) => el.getBoundingClientRect();
  const text = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect();
  };
  const overlap = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const boxes = Array.from(document.querySelectorAll(selector));
  if (boxes.length < 2) problems.push(`only ${boxes.length} figure boxes found by ${selector}`);
  const figures = [];
  boxes.forEach((box, i) => {
    const outer = r(box);
    box.querySelectorAll("dt, dd").forEach((part) => {
      const inner = text(part);
      figures.push({ name: part.textContent.trim(), rect: inner, box: i });
      if (inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5 || part.scrollWidth > part.clientWidth + 1) {
        problems.push(`"${part.textContent.trim()}" spills out of its box (${Math.round(inner.right - inner.left)}px of text in ${Math.round(outer.right - outer.left)}px)`);
      }
    });
    boxes.slice(i + 1).forEach((other) => {
      if (overlap(outer, r(other))) problems.push(`box ${i} overlaps "${other.textContent.trim().slice(0, 40)}"`);
    });
  });
  figures.forEach((a, i) => figures.slice(i + 1).forEach((b) => {
    if (a.box !== b.box && overlap(a.rect, b.rect)) problems.push(`"${a.name}" is printed over "${b.name}"`);
  }));
  const wide = document.documentElement.scrollWidth;
  if (wide > window.innerWidth) problems.push(`the page scrolls sideways: ${wide}px in a ${window.innerWidth}px window`);
  return problems;
}
