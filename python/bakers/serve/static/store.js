// What the page keeps in the browser (localStorage): every deal played lately with its
// moves, which one is in play, the statistics of each game and the options. The saved
// game is the truth: a reload, a link to the same deal or Back resumes its moves.
"use strict";

const STORE = {games: "bakers:games", current: "bakers:current", stats: "bakers:stats",
  options: "bakers:options"};
// The deals kept with their moves: the oldest beyond this are forgotten.
const KEPT_DEALS = 40;

function readJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value === null || typeof value !== "object" ? fallback : value;
  } catch (e) {
    return fallback;
  }
}

function writeJson(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode or full */ }
}

function dealKeyOf(game, deal) {
  return game + ":" + ("number" in deal ? "n" + deal.number : "s" + deal.seed);
}

// ---------------------------------------------------------------- deals and their moves

function savedGames() { return readJson(STORE.games, {}); }

function savedGame(key) {
  const record = savedGames()[key];
  return record && record.game && record.deal && Array.isArray(record.moves) ? record : null;
}

function saveGame(key, record) {
  const games = savedGames();
  games[key] = {...record, touched: Date.now()};
  const keys = Object.keys(games).sort((a, b) => (games[b].touched || 0) - (games[a].touched || 0));
  for (const old of keys.slice(KEPT_DEALS)) delete games[old];
  writeJson(STORE.games, games);
  try { localStorage.setItem(STORE.current, key); } catch (e) { /* private mode */ }
}

function currentKey() {
  try { return localStorage.getItem(STORE.current); } catch (e) { return null; }
}

// ---------------------------------------------------------------- statistics

function emptyStats() {
  return {played: 0, won: 0, streak: 0, bestStreak: 0, bestTime: null, bestMoves: null, daily: null};
}

function statsOf(game) { return {...emptyStats(), ...(readJson(STORE.stats, {})[game] || {})}; }

function updateStats(game, change) {
  const all = readJson(STORE.stats, {});
  const stats = {...emptyStats(), ...(all[game] || {})};
  change(stats);
  all[game] = stats;
  writeJson(STORE.stats, all);
  return stats;
}

function resetStats(game) {
  const all = readJson(STORE.stats, {});
  delete all[game];
  writeJson(STORE.stats, all);
}

// ---------------------------------------------------------------- options

function readOptions() {
  const o = readJson(STORE.options, {});
  return {fourColour: o.fourColour === true, size: ["small", "medium", "large"].includes(o.size) ? o.size : "medium",
    autoHome: ["game", "on", "off"].includes(o.autoHome) ? o.autoHome : "game"};
}

function writeOptions(options) { writeJson(STORE.options, options); }
