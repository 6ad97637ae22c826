// The retro explorer: draws a position of a solved game, colours every move
// by what it is worth to the player to move, plays, and charts the game's
// statistics. Everything comes from the server's JSON API (/api/...).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const state = {
  games: [],     // /api/games
  game: null,    // the chosen game's info, with its statistics
  history: [],   // the positions of this game so far, the current one last
  busy: false,   // a request is under way
};

// api fetches an API route and returns its JSON, or throws its error line.
async function api(path) {
  const r = await fetch("/api/" + path, { headers: { Accept: "application/json" } });
  let body;
  try {
    body = await r.json();
  } catch (e) {
    throw new Error(`${r.status} ${r.statusText}`);
  }
  if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
  return body;
}

function el(tag, attrs = {}, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// forMover is what a move is worth to its mover, from the value of the
// position it leads to (for the opponent): a loss there is a win here.
const forMover = { loss: "win", win: "loss", draw: "draw" };

// plies words a value and depth: "win in 7", "loss in 4", "draw".
function plies(value, depth) {
  if (value === "draw") return "draw";
  if (value === "unreached") return "unreached (the database holds what the start reaches)";
  return `${value} in ${depth}`;
}

// moveVerdict words a move for its mover: leading to a loss at depth d
// wins in d+1 plies.
function moveVerdict(m) {
  const v = forMover[m.value] || m.value;
  return v === "draw" ? "draw" : `${v} in ${m.depth + 1}`;
}

// --- Boards ----------------------------------------------------------------

// Each game's cells: the background of a cell and the piece on it, by the
// character of the game's notation (docs/formats.md).
const cellStyles = {
  quixo: { X: { piece: "cross" }, O: { piece: "ring" } },
  teeko: { X: { piece: "disk", fill: "#222" }, O: { piece: "disk", fill: "#c0392b" } },
  pawns: {
    "#": { bg: "#555" },
    O: { piece: "disk", fill: "#c0392b" },
    X: { piece: "disk", fill: "#222" },
    "@": { piece: "disk", fill: "#c0392b", ring: "#222" },
  },
  police: {
    "*": { bg: "#555" },
    E: { bg: "#9fd89f" },
    P: { piece: "disk", fill: "#1f5fbf", label: "P" },
    T: { piece: "disk", fill: "#e67e22", label: "T" },
    "@": { piece: "disk", fill: "#1f5fbf", ring: "#e67e22", label: "@" },
  },
  // Dōbutsu shōgi: Sente's pieces (upper case) light, Gote's dark, each
  // with its letter.
  dobutsu: Object.fromEntries([..."LGECH"].flatMap((ch) => [
    [ch, { piece: "disk", fill: "#c8a165", label: ch }],
    [ch.toLowerCase(), { piece: "disk", fill: "#5b3a1e", label: ch.toLowerCase() }],
  ])),
  // Morris: the server places the 24 points on a 7 x 7 grid, "+" where
  // there is none; the lines are drawn under them (boardLines).
  morris: { W: { piece: "disk", fill: "#fafafa", ring: "#222", point: true }, B: { piece: "disk", fill: "#222", point: true },
    ".": { point: true }, "+": { none: true } },
  // Chess: FEN's letters (White's upper case) as the usual glyphs, on
  // squares light and dark (squareColours).
  chess: Object.fromEntries([..."KQRBNPkqrbnp"].map((ch, i) => [ch, { glyph: String.fromCodePoint(0x2654 + i) }])),
};

// squareColours are the light and dark squares of a chessboard, a1 dark.
const squareColours = ["#f0d9b5", "#b58863"];

// boardLines are the lines of the games whose boards are points joined by
// lines, as [row, column] pairs of the grid the server places them on:
// morris's three squares and four spokes, and Morabaraba's diagonals.
function boardLines(kind) {
  if (kind !== "morris") return [];
  const lines = [];
  for (const k of [0, 1, 2]) {
    const a = k, b = 6 - k;
    lines.push([[a, a], [a, b]], [[a, b], [b, b]], [[b, b], [b, a]], [[b, a], [a, a]]);
  }
  lines.push([[0, 3], [2, 3]], [[4, 3], [6, 3]], [[3, 0], [3, 2]], [[3, 4], [3, 6]]);
  if (state.game && /variant=mora/.test(state.game.title)) {
    lines.push([[0, 0], [2, 2]], [[0, 6], [2, 4]], [[6, 0], [4, 2]], [[6, 6], [4, 4]]);
  }
  return lines;
}

// drawGrid draws rows of cells into svg, cell pixels each, and returns a
// function that gives the centre of a cell.
function drawGrid(svg, kind, rows, cell) {
  const styles = cellStyles[kind] || {};
  const h = rows.length, w = rows[0].length;
  svg.setAttribute("viewBox", `0 0 ${w * cell} ${h * cell}`);
  svg.setAttribute("width", w * cell);
  svg.setAttribute("height", h * cell);
  const gap = cell >= 12 ? 1 : 0;
  const at = (r, c) => [c * cell + cell / 2, r * cell + cell / 2];
  for (const [[r1, c1], [r2, c2]] of boardLines(kind)) {
    const [x1, y1] = at(r1, c1), [x2, y2] = at(r2, c2);
    svg.append(el("svg:line", { x1, y1, x2, y2, stroke: "#555", "stroke-width": Math.max(cell / 16, 1) }));
  }
  // Pieces go over every cell: on small cells they are drawn larger.
  const pieces = el("svg:g");
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const ch = rows[r][c];
      const st = styles[ch] || (ch === "." ? {} : { label: ch });
      if (st.none) continue;
      // A point of a board of lines is a dot on them, inside a cell
      // drawn only to be outlined (a move's changes).
      svg.append(el("svg:rect", { x: c * cell + gap, y: r * cell + gap, width: cell - 2 * gap, height: cell - 2 * gap,
        fill: st.point ? "none" : kind === "chess" ? squareColours[(r + c) % 2] : st.bg || "var(--cell)",
        rx: kind === "chess" ? 0 : cell / 10, "data-cell": `${r},${c}` }));
      if (st.point) {
        const [px, py] = at(r, c);
        svg.append(el("svg:circle", { cx: px, cy: py, r: Math.max(cell * 0.1, 2), fill: "#555" }));
      }
      // On a large board's small cells, pieces stay big enough to see.
      const cx = c * cell + cell / 2, cy = r * cell + cell / 2, rad = Math.max(cell * 0.36, st.label ? 6 : 0);
      if (st.glyph) {
        pieces.append(el("svg:text", { x: cx, y: cy + cell * 0.3, "text-anchor": "middle", "font-size": cell * 0.8, fill: "#111" }, st.glyph));
      } else if (st.piece === "disk") {
        pieces.append(el("svg:circle", { cx, cy, r: rad, fill: st.fill, stroke: st.ring || "none", "stroke-width": Math.max(cell / 10, 1.5) }));
      } else if (st.piece === "cross") {
        const d = rad * 0.75;
        pieces.append(el("svg:path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`,
          stroke: "#222", "stroke-width": cell / 9, "stroke-linecap": "round" }));
      } else if (st.piece === "ring") {
        pieces.append(el("svg:circle", { cx, cy, r: rad * 0.8, fill: "none", stroke: "#c0392b", "stroke-width": cell / 9 }));
      }
      if (st.label && cell >= 16) {
        pieces.append(el("svg:text", { x: cx, y: cy + cell * 0.14, "text-anchor": "middle", "font-size": cell * 0.4,
          "font-weight": "bold", fill: st.piece ? "#fff" : "#222" }, st.label));
      }
    }
  }
  svg.append(pieces);
  return at;
}

// target is the cell a move lands on when it changes at most two cells (a
// drop, or a piece from one cell to another): the one it leaves not empty.
function target(m) {
  if (!m.changed || m.changed.length === 0 || m.changed.length > 2) return null;
  const cells = m.changed.filter((_, i) => m.cells[i] !== ".");
  return cells.length === 1 ? cells[0] : null;
}

// after returns the rows of a board once a move has changed its cells.
function after(rows, m) {
  const out = rows.map((r) => r.split(""));
  (m.changed || []).forEach(([r, c], i) => { out[r][c] = m.cells[i]; });
  return out.map((r) => r.join(""));
}

// stepGames are the games whose moves drop a piece or move one from a cell
// to another, so that a move is shown by the cell it lands on (a Quixo move
// pushes a whole line: its list entry shows it).
const stepGames = new Set(["teeko", "pawns", "police", "dobutsu", "morris"]);

// drawBoard draws the current position and, over it, each move that lands
// on one cell as a dot coloured by its worth (the best one per cell).
function drawBoard(pos) {
  const svg = $("board");
  svg.replaceChildren();
  $("caption").textContent = pos.board ? pos.board.caption : pos.position;
  if (!pos.board || !pos.board.rows) {
    drawGraph(svg, pos);
    return;
  }
  const rows = pos.board.rows;
  const cell = Math.max(4, Math.min(72, Math.floor(560 / Math.max(rows.length, rows[0].length))));
  const centre = drawGrid(svg, state.game.kind, rows, cell);
  const seen = new Set();
  for (const m of pos.moves) {
    const t = stepGames.has(state.game.kind) ? target(m) : null;
    if (!t || seen.has(t.join())) continue;
    seen.add(t.join());
    const [cx, cy] = centre(t[0], t[1]);
    const dot = el("svg:circle", { cx, cy, r: Math.max(4, cell * 0.16), class: "movedot", fill: `var(--${forMover[m.value]})`,
      stroke: "#fff", "stroke-width": Math.max(1, cell / 28), cursor: "pointer" });
    dot.append(el("svg:title", {}, moveVerdict(m)));
    dot.addEventListener("click", () => play(m));
    svg.append(dot);
  }
}

// drawGraph draws a graph's vertex with its moves around it, coloured.
function drawGraph(svg, pos) {
  const size = 360, mid = size / 2, n = pos.moves.length;
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  const ring = n ? 130 : 0;
  pos.moves.slice(0, 24).forEach((m, i) => {
    const a = (2 * Math.PI * i) / Math.min(n, 24) - Math.PI / 2;
    const x = mid + ring * Math.cos(a), y = mid + ring * Math.sin(a);
    const colour = `var(--${forMover[m.value]})`;
    svg.append(el("svg:line", { x1: mid, y1: mid, x2: x, y2: y, stroke: colour, "stroke-width": 3 }));
    const g = el("svg:g", { cursor: "pointer", class: "movedot" });
    g.append(el("svg:circle", { cx: x, cy: y, r: 22, fill: colour }));
    g.append(el("svg:text", { x, y: y + 5, "text-anchor": "middle", fill: "#fff", "font-size": 13 }, String(m.index)));
    g.append(el("svg:title", {}, moveVerdict(m)));
    g.addEventListener("click", () => play(m));
    svg.append(g);
  });
  svg.append(el("svg:circle", { cx: mid, cy: mid, r: 30, fill: "#fff", stroke: `var(--${pos.value})`, "stroke-width": 5 }));
  svg.append(el("svg:text", { x: mid, y: mid + 6, "text-anchor": "middle", "font-size": 16 }, String(pos.index)));
}

// thumbnail draws the board a move leads to from pos, small.
function thumbnail(pos, m) {
  if (!pos.board || !pos.board.rows) return null;
  const rows = after(pos.board.rows, m);
  if (rows.length * rows[0].length > 64) return null;
  const svg = el("svg:svg", { class: "thumb" });
  drawGrid(svg, state.game.kind, rows, Math.floor(48 / Math.max(rows.length, rows[0].length)));
  return svg;
}

// moveCells words a move by the cells it changes, (row, column) from 1,
// for a large board whose positions' text is left out.
function moveCells(m) {
  if (!m.changed || m.changed.length === 0) return `a pass (index ${m.index})`;
  return m.changed.map(([r, c], i) => `(${r + 1}, ${c + 1}) ${m.cells[i]}`).join(", ");
}

// --- The page --------------------------------------------------------------

function current() {
  return state.history[state.history.length - 1];
}

function show() {
  const pos = current();
  const over = pos.moves.length === 0;
  $("status").textContent = over
    ? `game over: the player to move has ${pos.value === "win" ? "won" : pos.value === "loss" ? "lost" : "no move"}`
    : `to move: ${plies(pos.value, pos.depth)}`;
  $("status").className = pos.value;
  drawBoard(pos);
  const list = $("moves");
  list.replaceChildren();
  pos.moves.forEach((m, i) => {
    const li = el("li", { class: `move ${forMover[m.value]}${i === 0 ? " best" : ""}`, tabindex: 0,
      title: `leads to ${m.position || "index " + m.index}: ${plies(m.value, m.depth)} for the opponent` });
    const th = thumbnail(pos, m);
    if (th) li.append(th);
    li.append(el("span", { class: "verdict" }, moveVerdict(m)), el("span", { class: "text" }, m.position || moveCells(m)));
    li.addEventListener("click", () => play(m));
    li.addEventListener("keydown", (e) => { if (e.key === "Enter") play(m); });
    li.addEventListener("mouseenter", () => highlight(m.changed));
    li.addEventListener("mouseleave", () => highlight(null));
    list.append(li);
  });
  if (over) list.append(el("li", { class: "over" }, "no moves: the game is over"));
  const hist = $("history");
  hist.replaceChildren();
  state.history.forEach((p, i) => {
    const d = el("span", { class: `ply ${p.value}${i === state.history.length - 1 ? " current" : ""}`,
      title: `ply ${i}: ${p.position}, ${plies(p.value, p.depth)}` }, p.value === "draw" ? "=" : String(p.depth));
    d.addEventListener("click", () => { state.history.length = i + 1; show(); });
    hist.append(d);
  });
  $("undo").disabled = state.history.length < 2;
  $("best").disabled = over;
  const url = new URL(location);
  url.search = "";
  url.searchParams.set("game", state.game.id);
  if (pos.position.length <= 1024) url.searchParams.set("p", pos.position);
  else url.searchParams.set("i", pos.index);
  history.replaceState(null, "", url);
  setTimeout(autoPlay, 400);
}

function highlight(cells) {
  for (const r of document.querySelectorAll("#board rect.hl")) r.classList.remove("hl"), r.removeAttribute("stroke");
  for (const [r, c] of cells || []) {
    const rect = document.querySelector(`#board rect[data-cell="${r},${c}"]`);
    if (rect) rect.classList.add("hl"), rect.setAttribute("stroke", "#000"), rect.setAttribute("stroke-width", 3);
  }
}

// retroToMove reports whether "retro plays" has retro move now.
function retroToMove() {
  const who = $("auto").value, ply = state.history.length - 1;
  return who === "both" || (who !== "none" && (who === "first") === (ply % 2 === 0));
}

// autoPlay plays the best move when it is retro's turn.
function autoPlay() {
  const pos = current();
  if (!state.busy && pos.moves.length > 0 && retroToMove()) play(pos.moves[0]);
}

// run does one request, shows its error if it fails, and keeps the page
// from starting another meanwhile.
async function run(f) {
  if (state.busy) return;
  state.busy = true;
  $("error").textContent = "";
  try {
    await f();
  } catch (e) {
    $("error").textContent = e.message;
  } finally {
    state.busy = false;
  }
}

function positionPath(text) {
  return `games/${encodeURIComponent(state.game.id)}/position?p=${encodeURIComponent(text)}`;
}

function indexPath(i) {
  return `games/${encodeURIComponent(state.game.id)}/position?index=${encodeURIComponent(i)}`;
}

// play plays a move: the position it leads to, asked for by its text (the
// server then writes it as the move listed it: dobutsu's second player's
// positions stand as on the table), or by its index where the text was
// left out (a large board's).
function play(m) {
  return run(async () => {
    state.history.push(await api(m.position ? positionPath(m.position) : indexPath(m.index)));
    show();
  });
}

function begin(path) {
  return run(async () => {
    state.history = [await api(path)];
    show();
  });
}

function startPath() {
  return `games/${encodeURIComponent(state.game.id)}/${state.game.start ? "start" : "random"}`;
}

// --- Statistics ------------------------------------------------------------

function showStats(g) {
  const box = $("counts");
  box.replaceChildren();
  const fmt = (n) => n.toLocaleString("en-US");
  const sym = g.positions !== g.indices ? ` (one per symmetry class of ${fmt(g.indices)} indices)` : "";
  box.append(el("div", {}, `${fmt(g.positions)} positions stored${sym}, max depth ${g.maxDepth}:`));
  const line = el("div");
  for (const v of ["win", "loss", "draw", "illegal"]) {
    line.append(el("span", { class: v }, `${v} ${fmt(g.counts[v])}`), document.createTextNode("  "));
  }
  box.append(line);
  const svg = $("chart");
  svg.replaceChildren();
  const d = g.depths, bars = d.win.length, W = 600, H = 220, mid = H / 2;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const top = Math.log10(1 + Math.max(1, ...d.win, ...d.loss));
  const bw = W / bars;
  for (let k = 0; k < bars; k++) {
    const lo = k * d.bucket, label = d.bucket === 1 ? `depth ${lo}` : `depths ${lo}-${lo + d.bucket - 1}`;
    for (const [v, n, sign] of [["win", d.win[k], -1], ["loss", d.loss[k], 1]]) {
      if (!n) continue;
      const h = ((mid - 4) * Math.log10(1 + n)) / top;
      const r = el("svg:rect", { x: k * bw, y: sign < 0 ? mid - h : mid, width: Math.max(bw - 0.5, 0.5), height: h,
        fill: `var(--${v})` });
      r.append(el("svg:title", {}, `${label}: ${fmt(n)} ${v === "win" ? "wins" : "losses"}`));
      svg.append(r);
    }
  }
  svg.append(el("svg:line", { x1: 0, y1: mid, x2: W, y2: mid, stroke: "#888", "stroke-width": 0.5 }));
}

// chooseGame shows game id from its start, or from the position the page's
// address names (want: its p or i parameter).
async function chooseGame(id, want = {}) {
  await run(async () => {
    state.game = await api(`games/${encodeURIComponent(id)}`);
  });
  if (!state.game) return;
  $("title").textContent = state.game.title;
  $("pos").disabled = !state.game.notation;
  showStats(state.game);
  await begin(want.i != null ? indexPath(want.i) : want.p != null ? positionPath(want.p) : startPath());
  if (state.history.length === 0) {
    const why = $("error").textContent; // the address's position, refused
    await begin(startPath());
    $("error").textContent = why;
  }
}

async function main() {
  try {
    state.games = (await api("games")).games;
  } catch (e) {
    $("status").textContent = "";
    $("error").textContent = e.message;
    return;
  }
  const sel = $("game");
  for (const g of state.games) sel.append(el("option", { value: g.id }, g.title));
  sel.addEventListener("change", () => { state.history = []; chooseGame(sel.value); });
  $("start").addEventListener("click", () => begin(startPath()));
  $("random").addEventListener("click", () => begin(`games/${encodeURIComponent(state.game.id)}/random`));
  $("undo").addEventListener("click", () => {
    if (state.history.length < 2) return;
    state.history.pop();
    // Back to a turn of the player, not one retro would replay at once.
    if (state.history.length > 1 && retroToMove()) state.history.pop();
    show();
  });
  $("best").addEventListener("click", () => { const p = current(); if (p.moves.length) play(p.moves[0]); });
  $("auto").addEventListener("change", autoPlay);
  $("goto").addEventListener("submit", (e) => { e.preventDefault(); begin(positionPath($("pos").value.trim())); });
  const params = new URL(location).searchParams;
  const id = state.games.some((g) => g.id === params.get("game")) ? params.get("game") : state.games[0].id;
  sel.value = id;
  await chooseGame(id, { i: params.get("i"), p: params.get("p") });
}

main();
