// The page of `bakers serve`. It draws what the server answers and sends what the player
// does; the server replays the moves on its referee and refuses any the rules do not
// allow, so nothing here decides whether a move is legal.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const SUIT_PATHS = {
  H: ["M50 90C22 68 6 50 6 31 6 16 17 6 30 6c9 0 16 5 20 13 4-8 11-13 20-13 13 0 24 10 24 25 0 19-16 37-44 59z"],
  D: ["M50 4 88 50 50 96 12 50z"],
  S: ["M50 5c16 22 45 36 45 57 0 14-11 22-22 22-8 0-14-4-18-10 1 10 5 17 12 22H33c7-5 11-12 12-22-4 6-10 10-18 10C16 84 5 76 5 62 5 41 34 27 50 5z"],
  C: ["M50 8a19 19 0 0 1 15 31 19 19 0 1 1-9 35c1 9 5 15 11 20H33c6-5 10-11 11-20a19 19 0 1 1-9-35A19 19 0 0 1 50 8z"],
};
const RANKS = "0A23456789TJQK";
const CELL_LETTERS = "abcdefgi";
const SUITS = "HCDS";

const $ = (id) => document.getElementById(id);
const view = {
  games: [], game: null, state: null, redo: [], hint: null, busy: 0, animation: 0,
  grade: null, label: "",
};

// ---------------------------------------------------------------- the server

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)};
  let answer;
  try {
    answer = await fetch(path, options);
  } catch (err) {
    throw new Error("the server does not answer: " + err.message);
  }
  let data = {};
  try { data = await answer.json(); } catch (err) { data = {error: answer.statusText}; }
  if (!answer.ok) {
    const error = new Error(data.error || answer.statusText);
    error.reason = data.reason;
    error.status = answer.status;
    throw error;
  }
  return data;
}

function position(moves) {
  const s = view.state;
  return {game: s.game, deal: s.deal, moves: moves === undefined ? s.moves : moves};
}

async function work(task) {
  view.busy += 1;
  document.body.dataset.busy = "true";
  try {
    return await task();
  } catch (err) {
    say(err.message, "error");
    return null;
  } finally {
    view.busy -= 1;
    if (!view.busy) document.body.dataset.busy = "false";
  }
}

// ---------------------------------------------------------------- cards

function suitSvg(suit, cls) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  if (cls) svg.setAttribute("class", cls);
  for (const d of SUIT_PATHS[suit]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.appendChild(path);
  }
  return svg;
}

function cardElement(text) {
  const rank = text[0], suit = text[1];
  const el = document.createElement("div");
  el.className = "card " + (suit === "H" || suit === "D" ? "red" : "black");
  el.dataset.card = text;
  el.setAttribute("aria-label", text);
  const corner = document.createElement("div");
  corner.className = "corner";
  corner.append(rank === "T" ? "10" : rank, suitSvg(suit));
  el.append(corner, suitSvg(suit, "pip"));
  return el;
}

function rankText(rank) { return rank === 0 ? "" : RANKS[rank]; }

// ---------------------------------------------------------------- drawing

function layout() {
  const g = view.game;
  if (!g) return;
  const wide = Math.max(g.columns, g.cells + 4 + 1);
  const room = document.documentElement.clientWidth - 16;
  // wide cards and wide - 1 gaps of 0.12 cards fill the room
  const width = Math.max(20, Math.min(96, Math.floor(room / (wide + (wide - 1) * 0.12))));
  document.documentElement.style.setProperty("--card-w", width + "px");
}

function cardOffset(count) {
  // cards of a long column close up so that the column stays on the screen
  const width = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w"));
  const height = width * 1.4;
  // a covered card shows its corner: a quarter of a card, and never under 15 pixels
  // (small cards on a phone keep a readable corner)
  const base = Math.max(height * 0.24, 15);
  const top = $("columns").getBoundingClientRect().top + window.scrollY;
  const room = Math.max(window.innerHeight - top - 12, height * 2);
  return count <= 1 ? base : Math.max(height * 0.12, Math.min(base, (room - height) / (count - 1)));
}

function draw(moved) {
  const s = view.state, g = view.game;
  const table = $("table");
  table.classList.toggle("won", s.won);
  // cells
  const cells = $("cells");
  cells.replaceChildren();
  s.cells.forEach((card, i) => {
    const slot = document.createElement("div");
    slot.className = "slot cell";
    slot.dataset.drop = CELL_LETTERS[i];
    slot.setAttribute("aria-label", "cell " + CELL_LETTERS[i]);
    if (card) {
      const el = cardElement(card);
      el.dataset.place = CELL_LETTERS[i];
      el.dataset.depth = "1";
      el.classList.add("movable");
      slot.appendChild(el);
    }
    cells.appendChild(slot);
  });
  // foundations
  const homes = $("foundations");
  homes.replaceChildren();
  for (const suit of SUITS) {
    const slot = document.createElement("div");
    slot.className = "slot home";
    slot.dataset.drop = "h";
    const top = s.foundations[suit];
    if (top) {
      const el = cardElement(rankText(top) + suit);
      slot.appendChild(el);
    } else {
      slot.appendChild(suitSvg(suit, "mark"));
    }
    homes.appendChild(slot);
  }
  // columns
  const columns = $("columns");
  columns.replaceChildren();
  let tallest = 0;
  s.columns.forEach((column, i) => {
    const col = document.createElement("div");
    col.className = "column" + (column.length ? "" : " empty");
    col.dataset.drop = String(i + 1);
    col.setAttribute("aria-label", "column " + (i + 1));
    const step = cardOffset(column.length);
    column.forEach((card, j) => {
      const el = cardElement(card);
      const depth = column.length - j;
      el.dataset.place = String(i + 1);
      el.dataset.depth = String(depth);
      if (depth <= s.runs[i]) el.classList.add("movable");
      el.style.top = (j * step) + "px";
      col.appendChild(el);
    });
    const height = column.length ? (column.length - 1) * step : 0;
    col.style.height = "calc(" + height + "px + var(--card-h))";
    tallest = Math.max(tallest, height);
    columns.appendChild(col);
  });
  if (moved) {
    for (const card of moved) {
      const el = document.querySelector('.card[data-card="' + card + '"]');
      if (el) el.classList.add("moved");
    }
  }
  showHint();
  // the numbers
  $("home").textContent = s.home;
  $("deck").textContent = s.deck;
  $("moves-count").textContent = s.moves.length;
  const best = Math.max(s.home, bestHome());
  saveBest(best);
  $("best").textContent = best;
  $("grade").textContent = view.grade || "…";
  $("title").textContent = view.label;
  $("undo").disabled = !s.moves.length;
  $("redo").disabled = !view.redo.length;
  $("restart").disabled = !s.moves.length;
  $("hint").disabled = s.won;
  $("solve").disabled = s.won;
  $("auto").disabled = !s.autocomplete;
  $("auto").classList.toggle("ready", s.autocomplete);
  document.body.dataset.moves = String(s.moves.length);
  document.body.dataset.won = String(s.won);
  document.body.dataset.home = String(s.home);
  if (s.won) say("Won! Every card is home in " + s.moves.length + " moves.", "good");
  remember();
}

function say(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = kind || "";
}

// ---------------------------------------------------------------- the game's record

function dealKey() {
  const s = view.state;
  return s.game + ":" + ("number" in s.deal ? "n" + s.deal.number : "s" + s.deal.seed);
}

function bestHome() {
  try { return Number(localStorage.getItem("bakers:best:" + dealKey())) || 0; } catch (e) { return 0; }
}

function saveBest(best) {
  try { localStorage.setItem("bakers:best:" + dealKey(), String(best)); } catch (e) { /* private mode */ }
}

function remember() {
  const s = view.state;
  try {
    localStorage.setItem("bakers:game", JSON.stringify(
      {game: s.game, deal: s.deal, moves: s.moves, label: view.label}));
  } catch (e) { /* private mode */ }
}

// ---------------------------------------------------------------- moves

function moveText(src, dst, count) {
  const text = src.length === 1 && dst.length === 1 ? src + dst : src + "-" + dst;
  return count > 1 ? text + "x" + count : text;
}

function parseMove(text) {
  const m = /^(\d+|[a-i])-?(\d+|[a-i]|h)(?:x(\d+))?$/.exec(text.length > 2 && !text.includes("-")
    ? text[0] + "-" + text.slice(1) : text);
  if (!m) return null;
  return {src: m[1], dst: m[2], count: m[3] ? Number(m[3]) : 1, implied: !m[3]};
}

function movedCards(before, after) {
  // the cards whose place changed, to flash them
  const where = (s) => {
    const map = new Map();
    s.columns.forEach((col, i) => col.forEach((c, j) => map.set(c, "c" + i + ":" + j)));
    s.cells.forEach((c, i) => { if (c) map.set(c, "a" + i); });
    return map;
  };
  const a = where(before), b = where(after);
  const moved = [];
  for (const [card, place] of b) if (a.get(card) !== place) moved.push(card);
  for (const suit of SUITS) {
    if (after.foundations[suit] !== before.foundations[suit] && after.foundations[suit]) {
      moved.push(rankText(after.foundations[suit]) + suit);
    }
  }
  return moved;
}

function show(state, keepRedo) {
  const before = view.state;
  view.state = state;
  view.hint = null;
  if (!keepRedo) view.redo = [];
  draw(before && before.game === state.game ? movedCards(before, state) : null);
}

async function play(move) {
  const before = view.state;
  const state = await api("/api/move", {...position(), move});
  if (view.state !== before) return false;
  const redoTop = view.redo[view.redo.length - 1];
  const keep = redoTop !== undefined && redoTop === state.played;
  if (keep) view.redo.pop();
  show(state, keep);
  say("");
  return true;
}

async function tryMove(request) {
  // a click or a drop: the server plays it or says why not
  stopAnimation();
  const hintWas = view.hint;
  return work(async () => {
    try {
      const before = view.state;
      const state = request.move
        ? await api("/api/move", {...position(), move: request.move})
        : await api("/api/click", {...position(), from: request.from, count: request.count});
      if (view.state !== before) return;
      show(state, false);
      if (!state.won) say("");
    } catch (err) {
      say(err.reason ? "Not allowed: " + err.reason : err.message, "error");
      view.hint = hintWas;
      showHint();
    }
  });
}

// ---------------------------------------------------------------- hint, auto, solve

function clearHint() {
  for (const el of document.querySelectorAll(".hint-src, .hint-dst")) {
    el.classList.remove("hint-src", "hint-dst");
  }
}

function placeElement(place) {
  if (place === "h") return $("foundations");
  return document.querySelector('#cells [data-drop="' + place + '"], #columns [data-drop="' + place + '"]');
}

function showHint() {
  clearHint();
  const h = view.hint;
  if (!h) return;
  const source = placeElement(h.src);
  if (source) {
    const count = h.implied ? impliedCount(h) : h.count;
    for (const el of source.querySelectorAll(".card")) {
      if (Number(el.dataset.depth) <= count) el.classList.add("hint-src");
    }
  }
  const target = placeElement(h.dst);
  if (target) target.classList.add("hint-dst");
}

function impliedCount(m) {
  // a move between columns written without a count takes the cards from the one that
  // builds on the destination's top card (the rules' implied count); else one card
  const s = view.state;
  if (!/^\d+$/.test(m.src) || !/^\d+$/.test(m.dst)) return 1;
  const from = s.columns[Number(m.src) - 1], onto = s.columns[Number(m.dst) - 1];
  if (!from || !onto || !onto.length) return 1;
  const want = RANKS.indexOf(onto[onto.length - 1][0]) - 1;
  const run = s.runs[Number(m.src) - 1];
  for (let depth = 1; depth <= run; depth++) {
    if (RANKS.indexOf(from[from.length - depth][0]) === want) return depth;
  }
  return 1;
}

function cardName(text) {
  const rank = {A: "ace", T: "10", J: "jack", Q: "queen", K: "king"}[text[0]] || text[0];
  const suit = {H: "hearts", C: "clubs", D: "diamonds", S: "spades"}[text[1]];
  return rank + " of " + suit;
}

function describe(move) {
  const m = parseMove(move);
  if (!m) return move;
  const where = (p) => p === "h" ? "home" : /\d/.test(p) ? "column " + p : "cell " + p;
  const source = placeElement(m.src);
  const count = m.implied ? impliedCount(m) : m.count;
  const cards = source ? [...source.querySelectorAll(".card")].filter(
    (el) => Number(el.dataset.depth) <= count) : [];
  const first = cards.length ? cardName(cards[0].dataset.card) : "";
  const what = count > 1 ? count + " cards from " + first : first;
  return what + " from " + where(m.src) + " to " + where(m.dst);
}

async function askHint() {
  if (!view.state || view.state.won) return;
  stopAnimation();
  say("Thinking…");
  await work(async () => {
    const asked = view.state;
    const answer = await api("/api/hint", position());
    if (view.state !== asked) return;
    if (answer.verdict === "win" && answer.supermove) {
      const m = parseMove(answer.supermove);
      view.hint = {...m, move: answer.supermove};
      showHint();
      say("Hint: " + describe(answer.supermove) + " (click it to play it)", "good");
    } else if (answer.verdict === "win") {
      say("Won already!", "good");
    } else if (answer.verdict === "no_win") {
      say("No win from here (proved). At best " + answer.most_home +
          " cards home; undo to find a way back.", "error");
    } else {
      say("Not sure: the engine ran out of its time (" + answer.reason + ").");
    }
    document.body.dataset.hint = answer.verdict;
  });
}

function stopAnimation() { view.animation += 1; }

async function animate(moves, pause) {
  const run = ++view.animation;
  for (const move of moves) {
    if (view.animation !== run) return false;
    const ok = await work(() => play(move));
    if (!ok) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return view.animation === run;
}

async function autocomplete() {
  if (!view.state || !view.state.autocomplete) return;
  const answer = await work(() => api("/api/autocomplete", position()));
  if (answer && answer.moves) await animate(answer.moves, 90);
}

async function solve() {
  if (!view.state || view.state.won) return;
  stopAnimation();
  say("Solving…");
  const answer = await work(() => api("/api/solve", position()));
  if (!answer) return;
  if (answer.verdict === "win") {
    say("The engine wins in " + answer.moves.length + " moves from here; Esc stops.", "good");
    // a long line plays faster: at most about 20 seconds in all
    await animate(answer.moves, Math.max(60, Math.min(320, 20000 / answer.moves.length)));
  } else if (answer.verdict === "no_win") {
    say("No win from here (proved). At best " + answer.most_home + " cards home.", "error");
  } else {
    say("Not sure: the engine ran out of its time (" + answer.reason + ").");
  }
}

// ---------------------------------------------------------------- undo, redo, restart

async function goTo(moves, redo) {
  stopAnimation();
  await work(async () => {
    const state = await api("/api/state", position(moves));
    view.redo = redo;
    show(state, true);
    say("");
  });
}

function undo() {
  const s = view.state;
  if (!s || !s.moves.length) return;
  goTo(s.moves.slice(0, -1), [...view.redo, s.moves[s.moves.length - 1]]);
}

function redo() {
  if (!view.redo.length) return;
  stopAnimation();
  work(() => play(view.redo[view.redo.length - 1]));
}

function restart() {
  const s = view.state;
  if (!s || !s.moves.length) return;
  goTo([], [...view.redo, ...s.moves.slice().reverse()]);
}

// ---------------------------------------------------------------- deals

function useGame(name) {
  view.game = view.games.find((g) => g.name === name) || view.games[0];
  $("game").value = view.game.name;
  $("number").max = String(view.game.numbers[1]);
  layout();
}

async function newDeal(path, body, label) {
  stopAnimation();
  say("Dealing…");
  const state = await work(() => api(path, body));
  if (!state) return;
  useGame(state.game);
  view.label = label(state);
  view.grade = state.grade ? state.grade.grade + " (" + state.grade.score + ")" : null;
  view.state = null;
  show(state, false);
  say("");
  if ("number" in state.deal) {
    history.replaceState(null, "", "?game=" + state.game + "&number=" + state.deal.number);
  } else {
    history.replaceState(null, "", "?game=" + state.game + "&seed=" + state.deal.seed);
  }
  if (!view.grade) gradeDeal();
}

async function gradeDeal() {
  const asked = view.state;
  try {
    const g = await api("/api/grade", {game: asked.game, deal: asked.deal});
    if (view.state && view.state.deal === asked.deal) {
      view.grade = g.grade + " (" + g.score + ")";
      $("grade").textContent = view.grade;
    }
  } catch (err) {
    if (view.state && view.state.deal === asked.deal) {
      view.grade = err.status === 422 ? "no win" : "?";
      $("grade").textContent = view.grade;
    }
  }
}

function title() { return view.game.title; }

function dealByNumber() {
  const number = Number($("number").value);
  newDeal("/api/deal", {game: $("game").value, deal: {number}},
    (s) => title() + " #" + s.deal.number);
}

function localDate() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());
}

function daily() {
  newDeal("/api/daily", {game: $("game").value, date: localDate()},
    (s) => title() + ": deal of " + s.date);
}

function generated() {
  const difficulty = $("difficulty").value;
  newDeal("/api/generate", {game: $("game").value, difficulty},
    () => title() + ": new " + (difficulty === "any" ? "winnable" : difficulty) + " deal");
}

// ---------------------------------------------------------------- clicks and drags

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  const drop = el && el.closest("[data-drop]");
  return drop ? drop.dataset.drop : null;
}

function startPointer(event) {
  const card = event.target.closest(".card.movable");
  if (!card || event.button > 0 || !view.state || view.state.won) return;
  event.preventDefault();
  const place = card.dataset.place, depth = Number(card.dataset.depth);
  const holder = card.parentElement;
  const moving = [...holder.querySelectorAll(".card")].filter((el) => Number(el.dataset.depth) <= depth);
  const startX = event.clientX, startY = event.clientY;
  let ghost = null, over = null;
  const rect = card.getBoundingClientRect();

  function move(e) {
    const dx = e.clientX - startX, dy = e.clientY - startY;
    if (!ghost && Math.hypot(dx, dy) < 6) return;
    if (!ghost) {
      ghost = document.createElement("div");
      ghost.className = "card drag-ghost";
      ghost.style.background = "transparent";
      ghost.style.border = "none";
      ghost.style.boxShadow = "none";
      ghost.style.overflow = "visible";
      const step = moving.length > 1 ? moving[1].offsetTop - moving[0].offsetTop : 0;
      moving.forEach((el, i) => {
        const copy = el.cloneNode(true);
        copy.classList.remove("hint-src", "moved");
        copy.style.top = (i * step) + "px";
        ghost.appendChild(copy);
        el.classList.add("dragging");
      });
      document.body.appendChild(ghost);
    }
    ghost.style.left = (rect.left + dx) + "px";
    ghost.style.top = (rect.top + dy) + "px";
    const target = dropTarget(e.clientX, e.clientY);
    const el = target && target !== place ? placeElement(target) : null;
    if (over !== el) {
      if (over) over.classList.remove("drop-over");
      if (el) el.classList.add("drop-over");
      over = el;
    }
  }

  function up(e) {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", up);
    document.removeEventListener("pointercancel", up);
    if (over) over.classList.remove("drop-over");
    if (ghost) {
      ghost.remove();
      for (const el of moving) el.classList.remove("dragging");
      const target = e.type === "pointerup" ? dropTarget(e.clientX, e.clientY) : null;
      if (target && target !== place) tryMove({move: moveText(place, target, depth)});
      return;
    }
    if (e.type !== "pointerup") return;
    const h = view.hint;
    if (h && h.src === place && card.classList.contains("hint-src")) {
      tryMove({move: h.move});
    } else {
      tryMove({from: place, count: depth});
    }
  }

  document.addEventListener("pointermove", move);
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", up);
}

function keys(event) {
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (event.altKey || event.metaKey) return;
  const key = event.key.toLowerCase();
  if (event.ctrlKey) {
    if (key === "z") { event.preventDefault(); undo(); }
    if (key === "y") { event.preventDefault(); redo(); }
    return;
  }
  const action = {u: undo, r: redo, b: restart, h: askHint, a: autocomplete, s: solve,
    n: generated, d: daily, escape: () => { stopAnimation(); view.hint = null; clearHint(); say(""); }}[key];
  if (action) { event.preventDefault(); action(); }
}

// ---------------------------------------------------------------- start

async function start() {
  const info = await work(() => api("/api/games"));
  if (!info) return;
  view.games = info.games;
  const select = $("game");
  for (const g of view.games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.title;
    select.appendChild(option);
  }
  $("choose").addEventListener("submit", (e) => { e.preventDefault(); dealByNumber(); });
  select.addEventListener("change", () => { useGame(select.value); dealByNumber(); });
  $("daily-btn").addEventListener("click", daily);
  $("new-btn").addEventListener("click", generated);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", restart);
  $("hint").addEventListener("click", askHint);
  $("auto").addEventListener("click", autocomplete);
  $("solve").addEventListener("click", solve);
  $("table").addEventListener("pointerdown", startPointer);
  document.addEventListener("keydown", keys);
  window.addEventListener("resize", () => { layout(); if (view.state) draw(null); });

  const query = new URLSearchParams(location.search);
  const game = query.get("game");
  if (game && (query.get("number") || query.get("seed"))) {
    // as text: a seed has 64 bits, more than a number here holds exactly
    const deal = query.get("number") ? {number: query.get("number")} : {seed: query.get("seed")};
    useGame(game);
    if (deal.number) $("number").value = String(deal.number);
    const label = (s) => title() + ("number" in s.deal ? " #" + s.deal.number : ": seed " + s.deal.seed);
    await newDeal("/api/deal", {game, deal}, label);
    return;
  }
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem("bakers:game") || "null"); } catch (e) { saved = null; }
  if (saved && saved.game && saved.deal) {
    const state = await work(() => api("/api/state",
      {game: saved.game, deal: saved.deal, moves: saved.moves || []}));
    if (state) {
      useGame(state.game);
      view.label = saved.label || title();
      show(state, false);
      gradeDeal();
      return;
    }
  }
  useGame(view.games[0].name);
  dealByNumber();
}

start();
