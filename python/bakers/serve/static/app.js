// The page of `bakers serve`. It draws what the server answers and sends what the player
// does; the server replays the moves on its referee and refuses any the rules do not
// allow. The places lit up for a card (rules.js) are a preview of the same rules.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const SUIT_PATHS = {
  H: "M50 90C22 68 6 50 6 31 6 16 17 6 30 6c9 0 16 5 20 13 4-8 11-13 20-13 13 0 24 10 24 25 0 19-16 37-44 59z",
  D: "M50 4 88 50 50 96 12 50z",
  S: "M50 5c16 22 45 36 45 57 0 14-11 22-22 22-8 0-14-4-18-10 1 10 5 17 12 22H33c7-5 11-12 12-22-4 6-10 10-18 10C16 84 5 76 5 62 5 41 34 27 50 5z",
  C: "M50 8a19 19 0 0 1 15 31 19 19 0 1 1-9 35c1 9 5 15 11 20H33c6-5 10-11 11-20a19 19 0 1 1-9-35A19 19 0 0 1 50 8z",
};
// card widths the size option scales the fitted width by
const SIZES = {small: 0.8, medium: 1, large: 1.25};
// a card's height over its width
const CARD_RATIO = 1.4;
// the narrowest card whose corner holds "10" and its suit whole (style.css: the corner's
// font is at least 11 px, its suit at least 8 px)
const SMALLEST = 26;
// the narrowest card the height alone makes (a long column then scrolls the page)
const SMALLEST_FOR_HEIGHT = 40;

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const view = {
  games: [], game: null, state: null, redo: [], hint: null, busy: 0, animation: 0,
  grade: null, label: "", key: null, record: null, timerFrom: null,
  selected: null, cursor: null, outcome: null, options: readOptions(),
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
  svg.setAttribute("class", "suit" + (cls ? " " + cls : ""));
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", SUIT_PATHS[suit]);
  svg.appendChild(path);
  return svg;
}

function cardElement(text) {
  const rank = text[0], suit = text[1];
  const el = document.createElement("div");
  el.className = "card suit-" + suit + (suit === "H" || suit === "D" ? " red" : " black");
  el.dataset.card = text;
  el.setAttribute("aria-label", cardName(text));
  const corner = document.createElement("div");
  corner.className = "corner";
  const label = document.createElement("span");
  label.className = "rank" + (rank === "T" ? " ten" : "");
  label.textContent = rank === "T" ? "10" : rank;
  corner.append(label, suitSvg(suit));
  el.append(corner, suitSvg(suit, "pip"));
  return el;
}

function cardName(text) {
  const rank = {A: "ace", T: "10", J: "jack", Q: "queen", K: "king"}[text[0]] || text[0];
  const suit = {H: "hearts", C: "clubs", D: "diamonds", S: "spades"}[text[1]];
  return rank + " of " + suit;
}

// ---------------------------------------------------------------- fitting the screen

function cardWidth() {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 72;
}

function cornerStrip(width) {
  // how much of a covered card must show for its corner (rank and suit) to read whole:
  // the corner's font (style.css: max(11px, 0.26 card widths)), its 2 px top, and a gap
  return Math.max(11, 0.26 * width) + 6;
}

function plannedLength() {
  // the column the table is sized for: the longest now, or the deal's longest and a few
  // more cards built on it, so that the cards keep their size as columns grow
  const s = view.state;
  const now = s ? Math.max(0, ...s.columns.map((c) => c.length)) : 0;
  return Math.max(now, Math.max(...view.game.column_lengths) + 5);
}

function layout() {
  // the card width that fits the table on the screen: the columns (and the cells and
  // foundations) across, and the planned columns into the height under the header.
  // Three arrangements are tried: the cells and foundations in a row above the columns;
  // beside them, left and right, in as few columns as the height allows (a phone held
  // sideways); or the cells in a row and the foundations in the next (many cells on a
  // narrow screen).
  const g = view.game;
  if (!g) return;
  const root = document.documentElement, table = $("table");
  const room = root.clientWidth - 16;
  const top = table.getBoundingClientRect().top + window.scrollY;
  const height = window.innerHeight - top - 16;
  const n = plannedLength();
  const columnsHeight = (w) => CARD_RATIO * w + (n - 1) * cornerStrip(w);
  const across = (slots, w, gap) => slots * w + (slots - 1) * gap * w;
  const rowsBeside = (w, gap) => Math.max(1, Math.floor((height + gap * w) / (CARD_RATIO * w + gap * w)));
  // the height shrinks the cards down to SMALLEST_FOR_HEIGHT at most: a column too long
  // for the room left then scrolls the page
  const fits = (mode, w, gap) => {
    const row = CARD_RATIO * w + gap * w;
    const short = (h) => h <= height || w <= SMALLEST_FOR_HEIGHT;
    if (mode === "above") {
      const slots = Math.max(g.columns, g.cells + 4 + (g.cells ? 0.5 : 0));
      return across(slots, w, gap) <= room && short(columnsHeight(w) + row);
    }
    if (mode === "stacked") {  // the cells in one row, the foundations in the next
      return across(Math.max(g.columns, g.cells, 4), w, gap) <= room && short(columnsHeight(w) + 2 * row);
    }
    const rows = rowsBeside(w, gap);
    const slots = g.columns + Math.ceil(g.cells / rows) + Math.ceil(4 / rows) + 1;
    return across(slots, w, gap) <= room && short(columnsHeight(w));
  };
  const largest = (mode, gap) => {
    let w = 120;
    while (w > SMALLEST && !fits(mode, w, gap)) w -= 1;
    return w;
  };
  let gap = 0.12;
  if (largest("above", gap) < 44) gap = 0.06;  // a small screen: closer cards, larger corners
  // the row above unless another arrangement gives cards larger by more than 15%
  let mode = "above", width = largest("above", gap);
  for (const other of ["beside", "stacked"]) {
    const w = largest(other, gap);
    if (w > width * 1.15 && (mode === "above" || w > width)) { mode = other; width = w; }
  }
  if (mode === "beside") {
    const rows = rowsBeside(width, gap);
    root.style.setProperty("--cell-cols", String(Math.max(1, Math.ceil(g.cells / rows))));
    root.style.setProperty("--home-cols", String(Math.ceil(4 / rows)));
  }
  table.classList.toggle("side", mode === "beside");
  table.classList.toggle("stacked", mode === "stacked");
  width = Math.floor(Math.min(120, Math.max(SMALLEST, width * SIZES[view.options.size])));
  root.style.setProperty("--card-w", width + "px");
  root.style.setProperty("--gap", Math.round(width * gap) + "px");
}

function columnStep() {
  // the step between the cards of a column: the planned column fills the height below
  // the top row, never less than the corner strip, never more than a third of a card
  // (on a tall phone screen, half: the table fills the screen)
  const width = cardWidth(), height = width * CARD_RATIO;
  const top = $("columns").getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - 12;
  const tall = window.innerHeight > window.innerWidth * 1.3;
  const most = height * (tall ? 0.5 : 0.34);
  const n = Math.max(...view.game.column_lengths) + 2;
  return {least: cornerStrip(width), most: Math.max(cornerStrip(width), Math.min(most, (room - height) / (n - 1))),
    room, height};
}

// ---------------------------------------------------------------- drawing

function slotElement(kind, place, label) {
  const slot = document.createElement("div");
  slot.className = "slot " + kind;
  slot.dataset.drop = place;
  slot.setAttribute("aria-label", label);
  return slot;
}

function draw(moved) {
  const s = view.state;
  layout();
  const table = $("table");
  table.classList.toggle("won", s.won);
  const cells = $("cells");
  cells.replaceChildren();
  s.cells.forEach((card, i) => {
    const slot = slotElement("cell", CELL_LETTERS[i], "cell " + CELL_LETTERS[i]);
    slot.dataset.place = CELL_LETTERS[i];
    if (card) {
      const el = cardElement(card);
      el.dataset.place = CELL_LETTERS[i];
      el.dataset.depth = "1";
      el.classList.add("movable");
      slot.appendChild(el);
    }
    cells.appendChild(slot);
  });
  const homes = $("foundations");
  homes.replaceChildren();
  for (const suit of SUITS) {
    const slot = slotElement("home", "h", "foundation of " + cardName("A" + suit).slice(7));
    slot.dataset.suit = suit;
    const top = s.foundations[suit];
    slot.appendChild(top ? cardElement(rankText(top) + suit) : suitSvg(suit, "mark"));
    homes.appendChild(slot);
  }
  const columns = $("columns");
  columns.replaceChildren();
  const step = columnStep();
  s.columns.forEach((column, i) => {
    const col = document.createElement("div");
    col.className = "column" + (column.length ? "" : " empty");
    col.dataset.drop = col.dataset.place = String(i + 1);
    col.setAttribute("aria-label", "column " + (i + 1));
    // a column longer than the room closes up, down to the corner strip; longer still,
    // the page scrolls
    const fit = column.length > 1 ? (step.room - step.height) / (column.length - 1) : step.most;
    const offset = Math.max(step.least, Math.min(step.most, fit));
    column.forEach((card, j) => {
      const el = cardElement(card);
      const depth = column.length - j;
      el.dataset.place = String(i + 1);
      el.dataset.depth = String(depth);
      if (depth <= s.runs[i]) el.classList.add("movable");
      if (depth > 1) el.classList.add("covered");
      el.style.top = (j * offset) + "px";
      col.appendChild(el);
    });
    const height = column.length ? (column.length - 1) * offset : 0;
    col.style.height = "calc(" + height + "px + var(--card-h))";
    columns.appendChild(col);
  });
  for (const card of moved || []) {
    const el = document.querySelector('.card[data-card="' + card + '"]');
    if (el) el.classList.add("moved");
  }
  showHint();
  showMarks();
  $("home").textContent = s.home;
  $("deck").textContent = s.deck;
  $("moves-count").textContent = s.moves.length;
  const best = Math.max(s.home, view.record ? view.record.best || 0 : 0);
  if (view.record) view.record.best = best;
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
}

function say(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = kind || "";
}

// ---------------------------------------------------------------- the game's record

function newRecord(state, meta) {
  return {game: state.game, deal: state.deal, moves: [], redo: [], label: meta.label,
    kind: meta.kind || "number", grade: meta.grade || null, elapsed: 0, started: false,
    result: null, assisted: false, best: 0};
}

function remember() {
  const r = view.record;
  if (!r) return;
  r.moves = view.state.moves;
  r.redo = view.redo;
  r.elapsed = elapsed();
  r.grade = view.grade;
  saveGame(view.key, r);
}

function elapsed() {
  const r = view.record;
  if (!r) return 0;
  return r.elapsed + (view.timerFrom === null ? 0 : performance.now() - view.timerFrom);
}

function syncTimer() {
  // the clock runs from the first move to the win, while the page is in sight
  const r = view.record;
  const running = r && r.started && !r.result && !view.state.won && document.visibilityState === "visible";
  if (running && view.timerFrom === null) view.timerFrom = performance.now();
  if (!running && view.timerFrom !== null) {
    r.elapsed = elapsed();
    view.timerFrom = null;
  }
  $("time").textContent = clock(elapsed());
}

function clock(ms) {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, sec = seconds % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
}

function account() {
  // statistics: a game is played from its first move; a win counts once, the engine's
  // Solve makes it no win; leaving an unfinished game ends the streak
  const r = view.record, s = view.state;
  if (!r.started && s.moves.length) {
    r.started = true;
    updateStats(r.game, (st) => { st.played += 1; });
  }
  syncTimer();
  if (s.won && !r.result) {
    r.result = r.assisted ? "engine" : "won";
    r.elapsed = elapsed();
    updateStats(r.game, (st) => {
      if (r.result !== "won") { st.streak = 0; return; }
      st.won += 1;
      st.streak += 1;
      st.bestStreak = Math.max(st.bestStreak, st.streak);
      st.bestTime = st.bestTime === null ? r.elapsed : Math.min(st.bestTime, r.elapsed);
      st.bestMoves = st.bestMoves === null ? s.moves.length : Math.min(st.bestMoves, s.moves.length);
      if (r.kind === "daily:" + localDate()) st.daily = localDate();
    });
    syncTimer();
  }
}

function leaveGame() {
  const r = view.record;
  if (r && r.started && !r.result && !r.left) {
    r.left = true;
    updateStats(r.game, (st) => { st.streak = 0; });
  }
  if (r) remember();
}

// ---------------------------------------------------------------- the outcome

function showOutcome(kind, text) {
  view.outcome = kind;
  $("outcome").hidden = false;
  $("outcome").className = kind;
  $("outcome-title").textContent = kind === "won" ? "Won!" : "No win from here";
  $("outcome-text").textContent = text;
  $("outcome-undo").hidden = kind === "won";
  $("outcome-restart").hidden = kind === "won";
  document.body.dataset.outcome = kind;
}

function hideOutcome() {
  view.outcome = null;
  $("outcome").hidden = true;
  document.body.dataset.outcome = "";
}

function wonText() {
  const s = view.state, r = view.record;
  const text = "Every card is home in " + s.moves.length + " moves, " + clock(r.elapsed) + ".";
  return r.result === "engine" ? text + " The engine finished it: not counted as a win." : text;
}

function lostText(mostHome) {
  return "A complete search found no win from this position (at best " + mostHome +
    " cards home). Undo to find a way back, or start again.";
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
  view.selected = null;
  if (!keepRedo) view.redo = [];
  draw(before && before.game === state.game ? movedCards(before, state) : null);
  account();
  remember();
  if (state.won) {
    say("Won! Every card is home in " + state.moves.length + " moves.", "good");
    showOutcome("won", wonText());
  } else if (view.outcome) {
    hideOutcome();
  }
}

async function play(move) {
  // one move of a line (Solve, Auto, Redo, auto-move home): the status stays as it is
  const before = view.state;
  const state = await api("/api/move", {...position(), move});
  if (view.state !== before) return false;
  const redoTop = view.redo[view.redo.length - 1];
  const keep = redoTop !== undefined && redoTop === state.played;
  if (keep) view.redo.pop();
  show(state, keep);
  return true;
}

async function tryMove(request) {
  // a click, a drop or a keyboard move: the server plays it or says why not
  stopAnimation();
  const hintWas = view.hint;
  const done = await work(async () => {
    try {
      const before = view.state;
      const state = request.move
        ? await api("/api/move", {...position(), move: request.move})
        : await api("/api/click", {...position(), from: request.from, count: request.count});
      if (view.state !== before) return false;
      if (!state.won) say("");
      show(state, false);
      return true;
    } catch (err) {
      say(err.reason ? "Not allowed: " + err.reason : err.message, "error");
      view.hint = hintWas;
      showHint();
      return false;
    }
  });
  if (done) await autoHome();
}

function autoHomeOn() {
  const choice = view.options.autoHome;
  return choice === "on" || (choice === "game" && autoHomeDefault(view.game));
}

async function autoHome() {
  // after the player's move, the cards that are safe to send home go there one by one
  if (!autoHomeOn()) return;
  const run = ++view.animation;
  for (;;) {
    if (view.animation !== run || !view.state || view.state.won) return;
    const move = safeHome(view.game, view.state);
    if (!move) return;
    await sleep(110);
    if (view.animation !== run) return;
    const ok = await work(() => play(move));
    if (!ok) return;
  }
}

// ---------------------------------------------------------------- marks: hint, selection, legal places

function clearMarks(...classes) {
  for (const cls of classes) {
    for (const el of document.querySelectorAll("." + cls)) el.classList.remove(cls);
  }
}

function placeElements(place, card) {
  // the element(s) a place is drawn as: a cell, a column, or the foundation of the card
  if (place === "h") {
    const suit = card ? card[1] : null;
    return [...document.querySelectorAll("#foundations .slot")].filter(
      (el) => !suit || el.dataset.suit === suit);
  }
  return [...document.querySelectorAll('#cells [data-drop="' + place + '"], #columns [data-drop="' + place + '"]')];
}

function placeElement(place) { return placeElements(place)[0] || null; }

function topCards(place, count) {
  const holder = placeElement(place);
  return holder ? [...holder.querySelectorAll(".card")].filter((el) => Number(el.dataset.depth) <= count) : [];
}

function showHint() {
  clearMarks("hint-src", "hint-dst");
  const h = view.hint;
  if (!h) return;
  const count = h.implied ? impliedCount(h) : h.count;
  const cards = topCards(h.src, count);
  for (const el of cards) el.classList.add("hint-src");
  const card = cards.length ? cards[0].dataset.card : null;
  for (const el of placeElements(h.dst, card)) el.classList.add("hint-dst");
}

function markLegal(src, count) {
  // light up the places the cards may go (count null: the count the rules imply)
  clearMarks("legal");
  const cards = topCards(src, count === null ? 1 : count);
  const card = cards.length ? cards[0].dataset.card : null;
  const targets = legalTargets(view.game, view.state, src, count);
  for (const place of targets) for (const el of placeElements(place, card)) el.classList.add("legal");
  document.body.dataset.legal = targets.join(" ");
  return targets;
}

function showMarks() {
  // the keyboard's cursor and the selected cards with the places they may go
  clearMarks("cursor", "selected", "legal");
  document.body.dataset.legal = "";
  if (view.cursor) for (const el of placeElements(view.cursor)) el.classList.add("cursor");
  if (view.selected) {
    const run = /^\d+$/.test(view.selected) ? view.state.runs[Number(view.selected) - 1] : 1;
    for (const el of topCards(view.selected, run)) el.classList.add("selected");
    markLegal(view.selected, null);
  }
}

function impliedCount(m) {
  // a move between columns written without a count takes the cards from the one that
  // builds on the destination's top card (the rules' implied count); else one card
  const s = view.state;
  if (!/^\d+$/.test(m.src) || !/^\d+$/.test(m.dst)) return 1;
  const n = legalCount(rules(view.game, s), m.src, m.dst, null);
  return n || 1;
}

function describe(move) {
  const m = parseMove(move);
  if (!m) return move;
  const where = (p) => p === "h" ? "home" : /\d/.test(p) ? "column " + p : "cell " + p;
  const count = m.implied ? impliedCount(m) : m.count;
  const cards = topCards(m.src, count);
  const first = cards.length ? cardName(cards[0].dataset.card) : "";
  const what = count > 1 ? count + " cards from " + first : first;
  return what + " from " + where(m.src) + " to " + where(m.dst);
}

// ---------------------------------------------------------------- hint, auto, solve

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
      say("No win from here (proved).", "error");
      showOutcome("lost", lostText(answer.most_home));
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
    await sleep(pause);
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
  const asked = view.state;
  const answer = await work(() => api("/api/solve", position()));
  if (!answer || view.state !== asked) return;
  if (answer.verdict === "win") {
    say("The engine wins in " + answer.moves.length + " moves from here; Esc stops.", "good");
    view.record.assisted = true;
    // a long line plays faster: at most about 20 seconds in all
    await animate(answer.moves, Math.max(60, Math.min(320, 20000 / answer.moves.length)));
  } else if (answer.verdict === "no_win") {
    say("No win from here (proved).", "error");
    showOutcome("lost", lostText(answer.most_home));
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
    say("");
    show(state, true);
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
}

function title() { return view.game.title; }

function labelOf(game, deal, kind) {
  const t = (view.games.find((g) => g.name === game) || {title: game}).title;
  if (kind && kind.startsWith("daily:")) return t + ": deal of " + kind.slice(6);
  if (kind === "generated") return t + ": new winnable deal";
  return t + ("number" in deal ? " #" + deal.number : ": seed " + deal.seed);
}

function inProgress() {
  const r = view.record;
  return r && r.started && !r.result && view.state && view.state.moves.length > 0;
}

function confirmLeave() {
  // a game in progress is replaced only when the player says so (it stays one Back away)
  if (!inProgress()) return Promise.resolve(true);
  const panel = $("confirm-panel");
  $("confirm-text").textContent = view.label + ", " + view.state.moves.length + " moves in: it stays " +
    "one Back away in this browser, but counts as not won.";
  panel.returnValue = "";
  panel.showModal();
  return new Promise((resolve) => {
    panel.addEventListener("close", () => resolve(panel.returnValue === "leave"), {once: true});
  });
}

async function openDeal(game, deal, meta, how) {
  // play ``deal`` of ``game``: its saved moves when the browser has them (how.resume:
  // always; else only while unfinished), else from the start. how.push adds a history
  // entry, so that Back returns to the game left.
  const key = dealKeyOf(game, deal);
  const saved = savedGame(key);
  const resume = saved && (how.resume || !saved.result) ? saved : null;
  let state = null;
  if (resume) {
    state = await work(() => api("/api/state", {game, deal, moves: resume.moves}));
  }
  if (!state) {
    state = meta.state || await work(() => api("/api/state", {game, deal, moves: []}));
  }
  if (!state) return false;
  if (view.key !== key) leaveGame();
  stopAnimation();
  useGame(state.game);
  const fromSaved = resume && state.moves.length === resume.moves.length;
  view.key = key;
  view.record = fromSaved ? resume : newRecord(state, {...meta, label: meta.label || labelOf(game, deal, meta.kind)});
  view.timerFrom = null;
  view.label = view.record.label;
  view.grade = view.record.grade;
  view.cursor = null;
  view.state = null;
  hideOutcome();
  say("");
  show(state, false);
  view.redo = fromSaved ? (resume.redo || []) : [];
  draw(null);
  remember();
  const query = "?game=" + state.game + ("number" in state.deal ? "&number=" + state.deal.number
    : "&seed=" + state.deal.seed);
  if (how.push) history.pushState(null, "", query); else history.replaceState(null, "", query);
  if ("number" in state.deal) $("number").value = String(state.deal.number);
  if (!view.grade) gradeDeal();
  return true;
}

async function newDeal(path, body, meta) {
  // a deal the server makes (today's, a new winnable one): asked first over a game in progress
  if (!(await confirmLeave())) { useGame(view.state.game); return; }
  stopAnimation();
  say("Dealing…");
  const state = await work(() => api(path, body));
  if (!state) return;
  const kind = typeof meta.kind === "function" ? meta.kind(state) : meta.kind;
  const grade = state.grade ? state.grade.grade + " (" + state.grade.score + ")" : null;
  await openDeal(state.game, state.deal, {state, kind, grade}, {push: true, resume: false});
}

async function gradeDeal() {
  const asked = view.state;
  try {
    const g = await api("/api/grade", {game: asked.game, deal: asked.deal});
    if (view.state && view.state.deal === asked.deal) {
      view.grade = g.grade + " (" + g.score + ")";
      $("grade").textContent = view.grade;
      remember();
    }
  } catch (err) {
    if (view.state && view.state.deal === asked.deal) {
      view.grade = err.status === 422 ? "no win" : "?";
      $("grade").textContent = view.grade;
    }
  }
}

async function dealByNumber(game, number) {
  if (!(await confirmLeave())) { useGame(view.state.game); return; }
  await openDeal(game, {number: String(number)}, {kind: "number"}, {push: true, resume: false});
}

function nextDeal() {
  const s = view.state;
  if (!("number" in s.deal)) { generated(); return; }
  let next = BigInt(s.deal.number) + 1n;
  if (next > BigInt(view.game.numbers[1])) next = 1n;
  dealByNumber(s.game, next);
}

function localDate() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());
}

function daily() {
  newDeal("/api/daily", {game: $("game").value, date: localDate()}, {kind: (s) => "daily:" + s.date});
}

function generated() {
  newDeal("/api/generate", {game: $("game").value, difficulty: $("difficulty").value}, {kind: "generated"});
}

function loadFromUrl() {
  // a link or a reload: the deal it names, with the moves this browser saved for it
  const query = new URLSearchParams(location.search);
  const game = query.get("game");
  if (game && view.games.some((g) => g.name === game) && (query.get("number") || query.get("seed"))) {
    // as text: a seed has 64 bits, more than a number here holds exactly
    const deal = query.get("number") ? {number: query.get("number")} : {seed: query.get("seed")};
    const saved = savedGame(dealKeyOf(game, deal));
    return openDeal(game, saved ? saved.deal : deal, {kind: saved ? saved.kind : "number"}, {resume: true});
  }
  const saved = savedGame(currentKey());
  if (saved) return openDeal(saved.game, saved.deal, {kind: saved.kind}, {resume: true});
  return openDeal(view.games[0].name, {number: 1}, {kind: "number"}, {resume: true});
}

// ---------------------------------------------------------------- panels

function showRules() {
  const g = view.game;
  $("rules-title").textContent = "Rules of " + g.title;
  const list = $("rules-list");
  list.replaceChildren();
  for (const [term, text] of rulesText(g)) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = text;
    list.append(dt, dd);
  }
  $("rules-panel").showModal();
}

function showStats() {
  const g = view.game, st = statsOf(g.name);
  $("stats-title").textContent = "Statistics: " + g.title;
  const rows = [
    ["Played", st.played], ["Won", st.won + (st.played ? " (" + Math.round(100 * st.won / st.played) + "%)" : "")],
    ["Streak", st.streak + " (best " + st.bestStreak + ")"],
    ["Best time", st.bestTime === null ? "none yet" : clock(st.bestTime)],
    ["Fewest moves", st.bestMoves === null ? "none yet" : st.bestMoves],
    ["Today's deal", st.daily === localDate() ? "won" : "not won yet"],
  ];
  const list = $("stats-list");
  list.replaceChildren();
  for (const [term, value] of rows) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = String(value);
    dd.dataset.stat = term.toLowerCase().replace(/[^a-z]+/g, "-");
    list.append(dt, dd);
  }
  if (!$("stats-panel").open) $("stats-panel").showModal();
}

function applyOptions() {
  const o = view.options;
  document.body.classList.toggle("four-colour", o.fourColour);
  $("opt-four").checked = o.fourColour;
  $("opt-size").value = o.size;
  $("opt-auto").value = o.autoHome;
  if (view.state) draw(null);
}

function readOptionsForm() {
  view.options = {fourColour: $("opt-four").checked, size: $("opt-size").value, autoHome: $("opt-auto").value};
  writeOptions(view.options);
  applyOptions();
}

// ---------------------------------------------------------------- clicks and drags

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  const drop = el && el.closest("[data-drop]");
  return drop ? drop.dataset.drop : null;
}

function releaseFields() {
  // a form field keeps no focus once the player turns to the table: keys go to the game
  const active = document.activeElement;
  if (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) active.blur();
}

function startPointer(event) {
  releaseFields();
  const card = event.target.closest(".card.movable");
  if (!card || event.button > 0 || !view.state || view.state.won) return;
  event.preventDefault();
  $("table").focus({preventScroll: true});
  const place = card.dataset.place, depth = Number(card.dataset.depth);
  const moving = topCards(place, depth);
  const startX = event.clientX, startY = event.clientY;
  let ghost = null, over = null;
  const rect = card.getBoundingClientRect();

  function move(e) {
    const dx = e.clientX - startX, dy = e.clientY - startY;
    if (!ghost && Math.hypot(dx, dy) < 6) return;
    if (!ghost) {
      ghost = document.createElement("div");
      ghost.className = "drag-ghost";
      const step = moving.length > 1 ? moving[1].offsetTop - moving[0].offsetTop : 0;
      moving.forEach((el, i) => {
        const copy = el.cloneNode(true);
        copy.classList.remove("hint-src", "moved", "selected");
        copy.style.top = (i * step) + "px";
        ghost.appendChild(copy);
        el.classList.add("dragging");
      });
      document.body.appendChild(ghost);
      view.selected = null;
      showMarks();
      markLegal(place, depth);
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
      clearMarks("legal", "dragging");
      document.body.dataset.legal = "";
      const target = e.type === "pointerup" ? dropTarget(e.clientX, e.clientY) : null;
      // between columns the count is always written: the cards dragged, not the count
      // the rules would imply for the destination
      const between = /^\d+$/.test(place) && /^\d+$/.test(target || "");
      if (target && target !== place) {
        tryMove({move: moveText(place, target, depth) + (between && depth === 1 ? "x1" : "")});
      }
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

// ---------------------------------------------------------------- the keyboard

function placeRows() {
  const s = view.state;
  return [[...s.cells.map((_, i) => CELL_LETTERS[i]), "h"], s.columns.map((_, i) => String(i + 1))];
}

function moveCursor(dx, dy) {
  const rows = placeRows();
  let row = 1, at = 0;
  rows.forEach((places, r) => { const i = places.indexOf(view.cursor); if (i >= 0) { row = r; at = i; } });
  if (view.cursor === null) { view.cursor = rows[1][0]; showMarks(); return; }
  if (dy) {
    const fraction = rows[row].length > 1 ? at / (rows[row].length - 1) : 0;
    row = Math.max(0, Math.min(1, row + dy));
    at = Math.round(fraction * (rows[row].length - 1));
  } else {
    at = (at + dx + rows[row].length) % rows[row].length;
  }
  view.cursor = rows[row][at];
  showMarks();
}

function activate(place) {
  // keyboard play: the first place chosen is where cards come from, the second where
  // they go (as many as the rules imply)
  const s = view.state;
  if (!s || s.won || !place) return;
  view.cursor = place;
  if (view.selected === null) {
    const has = /^\d+$/.test(place) ? s.columns[Number(place) - 1].length > 0
      : place !== "h" && s.cells[CELL_LETTERS.indexOf(place)] !== null;
    view.selected = has ? place : null;
    showMarks();
    return;
  }
  const src = view.selected;
  view.selected = null;
  showMarks();
  if (src !== place) tryMove({move: moveText(src, place, 1)});
}

function keys(event) {
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || document.querySelector("dialog[open]")) return;
  if (event.altKey || event.metaKey || !view.state) return;
  const key = event.key.toLowerCase();
  if (event.ctrlKey) {
    if (key === "z") { event.preventDefault(); undo(); }
    if (key === "y") { event.preventDefault(); redo(); }
    return;
  }
  const onButton = tag === "BUTTON";
  const arrows = {arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, -1], arrowdown: [0, 1]};
  if (arrows[key] && !onButton) {
    event.preventDefault();
    moveCursor(...arrows[key]);
    return;
  }
  if ((key === "enter" || key === " ") && !onButton) {
    event.preventDefault();
    activate(view.cursor);
    return;
  }
  if (/^[0-9]$/.test(key)) {
    const column = key === "0" ? 10 : Number(key);
    if (column <= view.state.columns.length) { event.preventDefault(); activate(String(column)); }
    return;
  }
  const action = {u: undo, r: redo, b: restart, h: askHint, a: autocomplete, s: solve,
    n: generated, d: daily, escape: escape}[key];
  if (action) { event.preventDefault(); action(); }
}

function escape() {
  stopAnimation();
  view.hint = null;
  view.selected = null;
  view.cursor = null;
  clearMarks("hint-src", "hint-dst");
  showMarks();
  say("");
}

// ---------------------------------------------------------------- start

function wire() {
  const select = $("game");
  for (const g of view.games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.title;
    select.appendChild(option);
  }
  const backToTable = () => { releaseFields(); $("table").focus({preventScroll: true}); };
  $("choose").addEventListener("submit", (e) => {
    e.preventDefault();
    backToTable();
    dealByNumber($("game").value, $("number").value);
  });
  select.addEventListener("change", () => {
    backToTable();
    const number = $("number").value;
    dealByNumber(select.value, number && Number(number) >= 1 ? number : 1);
  });
  $("difficulty").addEventListener("change", backToTable);
  const on = (id, handler) => $(id).addEventListener("click", handler);
  on("daily-btn", daily);
  on("new-btn", generated);
  on("menu-btn", () => {
    const open = document.body.classList.toggle("menu-open");
    $("menu-btn").setAttribute("aria-expanded", String(open));
  });
  on("undo", undo);
  on("redo", redo);
  on("restart", restart);
  on("hint", askHint);
  on("auto", autocomplete);
  on("solve", solve);
  on("rules-btn", showRules);
  on("stats-btn", showStats);
  on("options-btn", () => $("options-panel").showModal());
  on("stats-reset", () => { resetStats(view.game.name); showStats(); });
  on("outcome-next", nextDeal);
  on("outcome-daily", daily);
  on("outcome-undo", undo);
  on("outcome-restart", restart);
  on("outcome-close", hideOutcome);
  for (const id of ["opt-four", "opt-size", "opt-auto"]) $(id).addEventListener("change", readOptionsForm);
  $("table").addEventListener("pointerdown", startPointer);
  document.addEventListener("keydown", keys);
  window.addEventListener("resize", () => { if (view.state) draw(null); });
  window.addEventListener("popstate", () => { stopAnimation(); loadFromUrl(); });
  document.addEventListener("visibilitychange", () => { if (view.record) { syncTimer(); remember(); } });
  window.addEventListener("pagehide", () => { if (view.record) remember(); });
  setInterval(() => { if (view.record) syncTimer(); }, 1000);
}

async function start() {
  applyOptions();
  const info = await work(() => api("/api/games"));
  if (!info) return;
  view.games = info.games;
  wire();
  await loadFromUrl();
  document.body.dataset.ready = "true";
}

start();
