// boardgen serve: the kit preview, play in the browser and replays. Plain ES module, no build step.
const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "Content-Type": "application/json" }, ...options });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function table(obj) {
  const t = el("table");
  for (const [k, v] of Object.entries(obj)) {
    t.append(el("tr", {}, el("td", {}, el("b", {}, k)), el("td", {}, typeof v === "object" ? JSON.stringify(v) : String(v))));
  }
  return t;
}

// ------------------------------------------------------------------------------------------ tabs
for (const b of document.querySelectorAll("button.tab")) {
  b.addEventListener("click", () => {
    for (const o of document.querySelectorAll("button.tab")) o.classList.toggle("active", o === b);
    for (const pane of document.querySelectorAll(".tabpane")) pane.hidden = pane.id !== `tab-${b.dataset.tab}`;
  });
}

// ------------------------------------------------------------------------------------------ kit preview
const kitView = { kit: null, page: 0, zoom: 1, loadedAt: 0 };
window.boardgen = kitView; // for tests and curious designers

function pageGroups(kit) {
  const groups = new Map();
  kit.pages.forEach((p) => { if (!groups.has(p.document)) groups.set(p.document, []); groups.get(p.document).push(p); });
  return groups;
}

function showError(message) {
  const box = $("#error");
  box.hidden = !message;
  box.textContent = message || "";
}

function spaceOverlay(board, widthMm, heightMm, legal = null, onPick = null, marks = []) {
  const svg = el("svg:svg", { class: "overlay", viewBox: `0 0 ${widthMm} ${heightMm}` });
  const [ox, oy] = board.offset_mm;
  const byId = new Map(board.spaces.map((s) => [s.id, s]));
  const stacked = new Map();
  for (const s of board.spaces) {
    const pts = s.outline_mm.length ? s.outline_mm : [[s.position_mm[0] - 3, s.position_mm[1] - 3], [s.position_mm[0] + 3, s.position_mm[1] - 3], [s.position_mm[0] + 3, s.position_mm[1] + 3], [s.position_mm[0] - 3, s.position_mm[1] + 3]];
    const poly = el("svg:polygon", { class: "space", "data-space": s.id, "data-x": s.position_mm[0] + ox, "data-y": s.position_mm[1] + oy, points: pts.map(([x, y]) => `${x + ox},${y + oy}`).join(" ") });
    if (legal && legal.has(s.id)) poly.classList.add("legal");
    poly.append(el("svg:title", {}, `${s.label} (${s.kind})`));
    poly.addEventListener("mouseenter", () => onPick && onPick(s, false));
    poly.addEventListener("click", () => onPick && onPick(s, true));
    svg.append(poly);
  }
  // marks are sized by the board's spaces (a hex of 10 mm, a square of 36 mm)
  const sizes = board.spaces.slice(0, 50).map((s) => { const xs = s.outline_mm.map((p) => p[0]); return xs.length ? Math.max(...xs) - Math.min(...xs) : 8; }).sort((a, b) => a - b);
  const unit = Math.max(0.6, (sizes.length ? sizes[Math.floor(sizes.length / 2)] : 10) / 12);
  const seatColours = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
  for (const [id, text] of marks) {
    const s = byId.get(id);
    if (!s) continue;
    const k = stacked.get(id) || 0;
    stacked.set(id, k + 1);
    const seat = /^P(\d+)$/.exec(text);
    const colour = seat ? seatColours[(Number(seat[1]) - 1) % seatColours.length] : "#333";
    const x = s.position_mm[0] + ox + (k % 3 - 1) * 4 * unit, y = s.position_mm[1] + oy + Math.floor(k / 3) * 4 * unit;
    const g = el("svg:g", { class: "mark", "pointer-events": "none" });
    g.append(el("svg:circle", { cx: x, cy: y, r: (seat ? 2.4 : 1.2) * unit, fill: colour, stroke: "#fff", "stroke-width": 0.4 * unit }));
    if (seat) g.append(el("svg:text", { x, y: y + 0.9 * unit, "font-size": 2.6 * unit, "text-anchor": "middle", fill: "#fff", "font-weight": "bold" }, seat[1]));
    svg.append(g);
  }
  return svg;
}

function showSpace(space, pinned) {
  const box = $("#details");
  box.replaceChildren(el("h3", {}, `Space ${space.label || space.id}`), table({ id: space.id, kind: space.kind, neighbours: space.neighbours.join(", "), ...space.data }));
  box.dataset.pinned = pinned ? space.id : "";
}

function showCard(hotspot) {
  $("#details").replaceChildren(el("h3", {}, "Card row"), table(hotspot.row));
}

function renderPage() {
  const kit = kitView.kit;
  if (!kit || !kit.pages.length) return;
  const index = Math.min(kitView.page, kit.pages.length - 1);
  const p = kit.pages[index];
  const sheet = $("#sheet");
  const pxPerMm = 3.78 * kitView.zoom;
  sheet.style.width = `${p.width_mm * pxPerMm}px`;
  sheet.style.height = `${p.height_mm * pxPerMm}px`;
  const img = el("img", { src: `/api/kit/page/${index}.svg?g=${kit.generation}`, alt: `${p.document} page ${p.number}`, id: "page-image" });
  const started = performance.now();
  img.addEventListener("load", () => { kitView.loadedAt = Date.now(); kitView.pageLoadMs = performance.now() - started; $("#status").textContent = `${kit.title} · build ${kit.built_s.toFixed(1)} s · page ${Math.round(kitView.pageLoadMs)} ms`; });
  const layers = [img];
  if (kit.board && kit.board.page === index) layers.push(spaceOverlay(kit.board, p.width_mm, p.height_mm, null, showSpace));
  if (p.hotspots.length) {
    const svg = el("svg:svg", { class: "overlay", viewBox: `0 0 ${p.width_mm} ${p.height_mm}` });
    p.hotspots.forEach((h, i) => {
      const r = el("svg:rect", { class: "card", x: h.x, y: h.y, width: h.w, height: h.h, "data-card": i });
      r.addEventListener("click", () => showCard(h));
      svg.append(r);
    });
    layers.push(svg);
  }
  sheet.replaceChildren(...layers);
  $("#page-title").textContent = `${p.document} · page ${p.number}`;
  for (const b of document.querySelectorAll("#pages button")) b.classList.toggle("current", Number(b.dataset.index) === index);
}

function renderKit() {
  const kit = kitView.kit;
  const list = $("#pages");
  list.replaceChildren();
  if (!kit) return;
  for (const [doc, pages] of pageGroups(kit)) {
    list.append(el("div", { class: "doc" }, doc));
    for (const p of pages) {
      const index = kit.pages.indexOf(p);
      list.append(el("button", { "data-index": index, onclick: () => { kitView.page = index; renderPage(); } }, p.number));
    }
  }
  renderPage();
}

async function loadKit() {
  const status = await api("/api/kit");
  showError(status.error);
  if (status.kit && (!kitView.kit || status.kit.generation !== kitView.kit.generation)) {
    const first = !kitView.kit;
    kitView.kit = status.kit;
    if (first && status.kit.board && status.kit.board.page !== null) kitView.page = status.kit.board.page;
    if (first) {  // the first page shown fits the width of the window
      const p = status.kit.pages[Math.min(kitView.page, status.kit.pages.length - 1)];
      if (p) kitView.zoom = Math.min(1, ($("#viewport").clientWidth - 20) / (p.width_mm * 3.78));
    }
    renderKit();
  }
  document.body.dataset.generation = status.generation;
  document.body.dataset.kitGeneration = status.kit ? status.kit.generation : "";
}

$("#zoom-in").addEventListener("click", () => { kitView.zoom *= 1.25; renderPage(); });
$("#zoom-out").addEventListener("click", () => { kitView.zoom /= 1.25; renderPage(); });
$("#viewport").addEventListener("wheel", (event) => {  // ctrl + wheel (or a pinch) zooms the page
  if (!event.ctrlKey) return;
  event.preventDefault();
  kitView.zoom *= event.deltaY < 0 ? 1.15 : 1 / 1.15;
  renderPage();
}, { passive: false });
$("#zoom-fit").addEventListener("click", () => {
  const p = kitView.kit && kitView.kit.pages[kitView.page];
  if (p) { kitView.zoom = ($("#viewport").clientWidth - 20) / (p.width_mm * 3.78); renderPage(); }
});

const events = new EventSource("/api/events");
events.addEventListener("kit", () => loadKit().catch((e) => showError(String(e))));

// ------------------------------------------------------------------------------------------ play
const play = { game: null, view: null, board: null, types: [], seen: new Map(), lastDeciding: null };
window.boardgenPlay = play;

async function loadGames() {
  const { games } = await api("/api/games");
  play.types = games;
  for (const select of [$("#play-game"), $("#replay-game")]) {
    select.replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  }
  if (kitView.kit && games.some((g) => g.name === kitView.kit.game)) { $("#play-game").value = kitView.kit.game; $("#replay-game").value = kitView.kit.game; }
  await seatChoices();
}

let seatRequest = 0;  // only the newest request for a game's seats draws them (an older answer may come later)

async function seatChoices() {
  const request = ++seatRequest;
  const box = $("#play-seats");
  box.dataset.ready = "";  // set to the game's name once its seats are drawn
  const name = $("#play-game").value;
  const info = await api(`/api/game-types/${encodeURIComponent(name)}`);
  if (request !== seatRequest) return;
  const type = play.types.find((g) => g.name === name);
  box.replaceChildren();
  const n = info.players[1];
  for (let i = 0; i < n; i++) {
    const select = el("select", { "data-seat": i }, el("option", { value: "human" }, "a person"), ...info.bots.map((b) => el("option", { value: b }, `bot: ${b}`)));
    select.value = i === 0 ? "human" : (type.default_bots[0] || info.bots[0]);
    box.append(el("label", {}, `Seat ${i + 1} `, select));
  }
  box.dataset.ready = name;
}
$("#play-game").addEventListener("change", seatChoices);

$("#play-start").addEventListener("click", async () => {
  const seats = [...document.querySelectorAll("#play-seats select")].map((s) => s.value);
  try {
    const view = await api("/api/games", { method: "POST", body: JSON.stringify({ game: $("#play-game").value, seats, seed: Number($("#play-seed").value) }) });
    play.game = view.id;
    play.seen = new Map();
    play.lastDeciding = null;
    play.board = await api(`/api/games/${view.id}/board`);
    showPlay(view);
  } catch (e) { showError(String(e.message || e)); }
});

async function act(action) {
  const started = performance.now();
  try {
    const view = await api(`/api/games/${play.game}/act`, { method: "POST", body: JSON.stringify({ seat: play.view.deciding, action }) });
    view.round_trip_ms = performance.now() - started;
    showPlay(view);
  } catch (e) { showError(String(e.message || e)); }
}

function showPlay(view) {
  play.view = view;
  showError("");
  const bySpace = new Map();
  for (const a of view.legal) if (a.space) { if (!bySpace.has(a.space)) bySpace.set(a.space, []); bySpace.get(a.space).push(a); }
  const banner = view.terminal ? "The game is over." : view.deciding === null ? `Waiting: ${view.to_move}` :
    view.simultaneous ? `Seat ${view.deciding + 1} chooses in secret (the others look away); choices are revealed together.` : `Seat ${view.deciding + 1} to play.`;
  $("#play-banner").textContent = banner;
  $("#play-status").textContent = `game ${view.title} · seed ${view.seed} · ${view.steps} steps${view.round_trip_ms ? ` · last move ${Math.round(view.round_trip_ms)} ms` : ""}`;
  document.body.dataset.playSteps = view.steps;
  document.body.dataset.playTerminal = view.terminal ? "1" : "0";
  // the board
  drawBoard($("#play-board"), $("#play-board-wrap"), play.board, view.id, new Set(bySpace.keys()), (space, clicked) => {
    if (!clicked) {  // hovering a space shows what it is and what can be played there
      const here = (bySpace.get(space.id) || []).map((a) => a.text).join("; ");
      $("#play-space").textContent = `${space.label || space.id} (${space.kind}) · neighbours ${space.neighbours.join(", ")}${here ? ` · here: ${here}` : ""}`;
      return;
    }
    const choices = bySpace.get(space.id) || [];
    if (choices.length === 1) act(choices[0].action);
    else if (choices.length > 1) listActions(choices, `on ${space.label || space.id}`);
  }, view.marks || [], view.table, `steps=${view.steps}`);
  // what happened since this seat last looked: dice, draws and the other seats' moves, as they happened
  const seen = play.seen.get(view.viewer);
  const fresh = seen === undefined ? [] : view.log.slice(Math.max(0, view.log.length - (view.steps - seen)));
  play.seen.set(view.viewer, view.steps);
  $("#play-recent").textContent = fresh.length ? `Since seat ${view.viewer + 1} last chose: ${fresh.slice(-12).join(" · ")}` : "";
  // hot-seat: another person's turn hides this one's view until they say they are at the screen
  const humans = view.seats.filter((s) => s.who === "human").length;
  const handOver = humans > 1 && view.deciding !== null && play.lastDeciding !== null && view.deciding !== play.lastDeciding;
  play.lastDeciding = view.deciding;
  $("#play-cover").hidden = !handOver;
  $("#play-cover-text").textContent = handOver ? `Pass the screen to seat ${view.deciding + 1}.` : "";
  listActions(view.legal, "");
  $("#play-obs").textContent = compact(view.observation);
  $("#play-log").replaceChildren(...view.log.slice(-200).map((line) => el("li", {}, line)));
  $("#play-log").scrollTop = 1e9;
  $("#play-undo").disabled = !view.can_undo;
  $("#play-save").disabled = !view.terminal;
  $("#play-outcome").textContent = view.outcome ? `Scores ${view.outcome.scores.join(" / ")} · winners ${view.outcome.winners.map((s) => `seat ${s + 1}`).join(", ") || "none"}` : "";
}

function compact(observation) {
  return Object.entries(observation).map(([k, v]) => `${k}: ${typeof v === "string" && v.includes("\n") ? `\n${v}` : JSON.stringify(v)}`).join("\n");
}

function drawBoard(wrap, area, boardInfo, sessionId, legalSpaces, onPick, marks, laid = null, query = "") {
  // a game laid out during play (an island of tiles) is drawn as its table stands; others on their printed board
  const b = laid ? { page: "table", offset_mm: [0, 0], spaces: laid.spaces, width_mm: laid.width_mm, height_mm: laid.height_mm }
    : boardInfo && boardInfo.board;
  if (!b || b.page === null) { wrap.hidden = true; return; }
  const src = laid ? `/api/games/${sessionId}/table.svg?${query}` : `/api/games/${sessionId}/board.svg`;
  const old = wrap.querySelector("img");
  const img = old && old.getAttribute("src") === src ? old : el("img", { src, alt: "board" });
  const w = (b.width_mm || 300) + 2 * b.offset_mm[0], h = (b.height_mm || 300) + 2 * b.offset_mm[1];
  const scale = Math.min(1.6, (area.clientWidth - 20) / w, Math.max(200, area.clientHeight - 20) / h);
  wrap.style.width = `${w * scale}px`; wrap.style.height = `${h * scale}px`;
  const layers = [img];
  if (b.spaces.length) layers.push(spaceOverlay(b, w, h, legalSpaces, onPick, marks));
  wrap.replaceChildren(...layers);
  wrap.hidden = false;
}

function listActions(actions, where) {
  const box = $("#actions");
  box.replaceChildren(...(where ? [el("div", {}, el("em", {}, where))] : []),
    ...actions.map((a) => el("button", { "data-action": a.action, ...(a.space ? { "data-space": a.space } : {}), onclick: () => act(a.action) }, a.text)));
}

$("#play-undo").addEventListener("click", async () => {
  try { showPlay(await api(`/api/games/${play.game}/undo`, { method: "POST" })); } catch (e) { showError(String(e.message || e)); }
});
$("#play-save").addEventListener("click", async () => {
  const log = await api(`/api/games/${play.game}/log`);
  const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(log, null, 1)], { type: "application/json" })), download: `${log.game}-seed${log.seed}.json` });
  document.body.append(link); link.click(); link.remove();
});

// ------------------------------------------------------------------------------------------ replays
const replay = { id: null, view: null, board: null };
window.boardgenReplay = replay;

async function showReplay(step) {
  if (!replay.id) return;
  const seat = Number($("#replay-seat").value || 0);
  const view = await api(`/api/replays/${replay.id}?step=${step}&seat=${seat}`);
  replay.view = view;
  $("#replay-step").max = view.length;
  $("#replay-step").value = view.step;
  $("#replay-where").textContent = `step ${view.step} of ${view.length}${view.outcome ? ` · scores ${view.outcome.scores.join(" / ")}` : ""}`;
  $("#replay-last-action").textContent = view.last || "(the start)";
  $("#replay-obs").textContent = compact(view.observation);
  drawBoard($("#replay-board"), $("#replay-board-wrap"), replay.board, replay.id, new Set(), null, view.marks || [],
    view.table, `step=${view.step}&seat=${view.seat}`);
  document.body.dataset.replayStep = view.step;
}

async function openReplay(body) {
  try {
    const view = await api("/api/replays", { method: "POST", body: JSON.stringify(body) });
    replay.id = view.id;
    replay.board = await api(`/api/games/${view.id}/board`);
    $("#replay-seat").replaceChildren(...view.seats.map((s, i) => el("option", { value: i }, `seat ${i + 1} (${s})`)));
    await showReplay(0);
  } catch (e) { showError(String(e.message || e)); }
}

$("#replay-open").addEventListener("click", () => {
  const bots = $("#replay-bots").value.split(",").map((s) => s.trim()).filter(Boolean);
  openReplay({ game: $("#replay-game").value, seed: Number($("#replay-seed").value), index: Number($("#replay-index").value), ...(bots.length ? { bots } : {}) });
});
$("#replay-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  let doc;
  try { doc = JSON.parse(await file.text()); } catch (e) { showError(`${file.name}: not a JSON file`); return; }
  if (doc.format === "boardgen-game-log") { openReplay({ log: doc }); return; }
  // results.json of `boardgen simulate`: its sample games (the longest, the shortest, a 0-point seat, a few at random)
  const samples = Array.isArray(doc.samples) ? doc.samples : [];
  if (!samples.length) { showError(`${file.name}: neither a saved game nor a results.json with sample games`); return; }
  const game = doc.game;  // none in an older results.json: the server plays its default game
  const bots = doc.summary && Array.isArray(doc.summary.bots) ? doc.summary.bots : undefined;
  $("#replay-samples").replaceChildren(...samples.map((s) => el("button", {
    "data-index": s.index,
    onclick: () => openReplay({ game, game_seed: s.seed, lineup: s.lineup, ...(bots ? { bots } : {}) }),
  }, `game ${s.index}: ${(s.why || []).join(", ")}${s.scores ? ` · scores ${s.scores.join(" / ")}` : ""}`)));
});
$("#replay-first").addEventListener("click", () => showReplay(0));
$("#replay-prev").addEventListener("click", () => showReplay(Math.max(0, (replay.view?.step || 0) - 1)));
$("#replay-next").addEventListener("click", () => showReplay((replay.view?.step || 0) + 1));
$("#replay-last").addEventListener("click", () => showReplay(replay.view?.length || 0));
$("#replay-step").addEventListener("input", (e) => showReplay(Number(e.target.value)));
$("#replay-seat").addEventListener("change", () => showReplay(replay.view?.step || 0));

loadKit().then(loadGames).catch((e) => showError(String(e.message || e)));
$("#play-cover-ok").addEventListener("click", () => { $("#play-cover").hidden = true; });
