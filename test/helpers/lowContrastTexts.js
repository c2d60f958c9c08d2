// Evaluated in a page by the dashboard tests (page.evaluate of this file's
// text; plain JS, as tsx's compiled functions do not run in a page): the
// visible texts whose contrast with the background drawn under them is below
// WCAG AA (4.5:1, 3:1 for large text), as `ratio "text" (element)`.
(() => {
  const rgba = (css) => {
    const [r, g, b, a = 1] = css.match(/[\d.]+/g).map(Number);
    return { r, g, b, a };
  };
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const luminance = ({ r, g, b }) => {
    const channel = (value) => (value / 255 <= 0.03928 ? value / 255 / 12.92 : ((value / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  // The element's background over its ancestors' (the page's own backgrounds are flat colours).
  const background = (element) => {
    const layers = [];
    for (let node = element; node; node = node.parentElement) layers.unshift(rgba(getComputedStyle(node).backgroundColor));
    return layers.reduce((under, layer) => (layer.a > 0 ? over(layer, under) : under), { r: 255, g: 255, b: 255, a: 1 });
  };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const element = text.parentElement;
    if (!text.textContent.trim() || element.getClientRects().length === 0) continue;
    const style = getComputedStyle(element);
    const under = background(element);
    const [lighter, darker] = [luminance(over(rgba(style.color), under)), luminance(under)].sort((a, b) => b - a);
    const ratio = (lighter + 0.05) / (darker + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(`${ratio.toFixed(2)} ${JSON.stringify(text.textContent.trim())} (${element.tagName.toLowerCase()}.${element.className})`);
  }
  return low;
})();
