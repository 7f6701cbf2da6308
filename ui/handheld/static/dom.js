// The phone pages' one DOM helper: h("button", {class, onclick, ...}, ...children).

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "value") node.value = v;
    // Through the CSSOM: the pages' CSP (style-src 'self') refuses style attributes.
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A page's message line: a note {key, params} (translated by t) or {text}, of a kind (info,
// error, ...); an empty line keeps its place when there is none.
export function messageLine(note, t) {
  if (!note) return h("p", { class: "message", id: "message" }, "\u00a0");
  const text = note.key ? t(note.key, note.params) : note.text;
  const kind = note.kind || "info";
  return h("p", { class: `message ${kind}`, id: "message", role: kind === "error" ? "alert" : null }, text);
}
