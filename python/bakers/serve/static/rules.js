// The rules of a game as the page reads them from its Variant fields (GET /api/games
// returns them; docs/rules.md explains each): the text of the rules panel, and the
// destinations the page highlights for a card. The highlights are a preview: the
// server's referee still decides every move, and tests/test_page_rules.py checks the
// preview against the referee in every game.
"use strict";

const RANKS = "0A23456789TJQK";
const SUITS = "HCDS";
const CELL_LETTERS = "abcdefgi";

function rankOf(card) { return RANKS.indexOf(card[0]); }
function suitOf(card) { return SUITS.indexOf(card[1]); }
function rankText(rank) { return rank === 0 ? "" : RANKS[rank]; }

// ---------------------------------------------------------------- building

function builds(g, rank, suit, ontoRank, ontoSuit) {
  // Variant.builds: one rank lower (a king on an ace round the corner), by the suit rule
  if (rank !== ontoRank - 1 && !(g.wrap && rank === 13 && ontoRank === 1)) return false;
  if (g.build === "suit") return suit === ontoSuit;
  return g.build === "any" || suit % 2 !== ontoSuit % 2;
}

function fits(g, card, onto) { return builds(g, rankOf(card), suitOf(card), rankOf(onto), suitOf(onto)); }

function deckRanks(deck) {
  return deck === 36 ? [1, 6, 7, 8, 9, 10, 11, 12, 13] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
}

function baseRank(g, s) {
  // Variant.foundation_base: where the first card dealt sets the base, a non-empty
  // foundation's top rank less the cards of its suit home gives it
  if (!g.base_from_deal) return 1;
  const perSuit = g.deck / 4;
  for (let suit = 0; suit < 4; suit++) {
    const top = s.foundations[SUITS[suit]];
    if (!top) continue;
    let inPlay = 0;
    for (const column of s.columns) for (const c of column) if (suitOf(c) === suit) inPlay++;
    for (const c of s.cells) if (c && suitOf(c) === suit) inPlay++;
    const home = perSuit - inPlay;
    return (((top - home) % 13) + 13) % 13 + 1;
  }
  return 1;
}

function foundationRanks(g, s) {
  const ranks = deckRanks(g.deck);
  const at = ranks.indexOf(baseRank(g, s));
  return ranks.slice(at).concat(ranks.slice(0, at));
}

function rules(g, s) {
  // the facts of one position the checks below share
  const ranks = foundationRanks(g, s);
  const index = (rank) => rank === 0 ? -1 : ranks.indexOf(rank);
  return {
    g, s, ranks,
    goesHome: (card) => index(s.foundations[card[1]]) + 1 === ranks.indexOf(rankOf(card)),
    isHome: (rank, suit) => index(s.foundations[SUITS[suit]]) >= ranks.indexOf(rank),
    takesEmpty: (card) => g.empty === "any" || (g.empty === "kings" && rankOf(card) === ranks[ranks.length - 1]),
  };
}

function runLength(g, column) {
  // the built sequence on top of a column (Board._run)
  if (!column.length) return 0;
  let n = 1;
  while (n < column.length && fits(g, column[column.length - n], column[column.length - n - 1])) n++;
  return n;
}

function moveLimit(g, s, dstEmpty) {
  // the most cards one column-to-column move takes (Board._limit); Infinity: no limit
  if (g.moves === "single") return 1;
  if (g.moves === "sequence") return Infinity;
  const free = s.cells.filter((c) => c === null).length + 1;
  if (g.empty !== "any") return free;
  const empties = s.columns.filter((c) => !c.length).length - (dstEmpty ? 1 : 0);
  return free * 2 ** Math.max(empties, 0);
}

function isColumn(place) { return /^\d+$/.test(place); }

function takeCards(s, place, count) {
  // the cards a move from ``place`` takes, covered first; null where there are not so many
  if (isColumn(place)) {
    const column = s.columns[Number(place) - 1] || [];
    return count >= 1 && count <= column.length ? column.slice(column.length - count) : null;
  }
  const held = s.cells[CELL_LETTERS.indexOf(place)];
  return held && count === 1 ? [held] : null;
}

function legalCount(r, src, dst, count) {
  // the count of the move src -> dst taking ``count`` cards (null: the count the rules
  // imply), or 0 when the move is illegal (Board._examine)
  const {g, s} = r;
  const fromColumn = isColumn(src);
  if (src === dst) return 0;
  if (!fromColumn || !isColumn(dst)) {
    const cards = takeCards(s, src, 1);
    if (!cards || (count !== null && count !== 1)) return 0;
    const card = cards[0];
    if (dst === "h") return r.goesHome(card) ? 1 : 0;
    if (!isColumn(dst)) return s.cells[CELL_LETTERS.indexOf(dst)] === null ? 1 : 0;
    const onto = s.columns[Number(dst) - 1];
    if (onto.length) return fits(g, card, onto[onto.length - 1]) ? 1 : 0;
    return r.takesEmpty(card) ? 1 : 0;
  }
  const from = s.columns[Number(src) - 1], onto = s.columns[Number(dst) - 1];
  if (!from.length) return 0;
  const run = runLength(g, from), limit = moveLimit(g, s, !onto.length);
  let n = count;
  if (n === null) {
    if (g.moves === "single") {
      n = 1;
    } else if (onto.length) {
      const gap = rankOf(onto[onto.length - 1]) - rankOf(from[from.length - 1]);
      n = g.wrap ? ((gap % 13) + 13) % 13 : gap;
    } else {
      n = 0;
      for (let k = 1; k <= Math.min(run, limit); k++) if (r.takesEmpty(from[from.length - k])) n = k;
      return n;
    }
  }
  if (n < 1 || n > run || (n > 1 && g.moves === "single") || n > limit) return 0;
  const bottom = from[from.length - n];
  if (onto.length ? !fits(g, bottom, onto[onto.length - 1]) : !r.takesEmpty(bottom)) return 0;
  return n;
}

function places(s) {
  return [...s.cells.map((_, i) => CELL_LETTERS[i]), "h", ...s.columns.map((_, i) => String(i + 1))];
}

function legalTargets(g, s, src, count) {
  // every place the ``count`` top cards of ``src`` may go to (count null: any count the
  // rules imply, as a move typed without one)
  const r = rules(g, s);
  return places(s).filter((dst) => legalCount(r, src, dst, count) > 0);
}

function safeHome(g, s) {
  // a move home of a card no other card could still use (every card that fits on it is
  // home already, or is of the foundations' first rank, which goes home rather than
  // onto it): it never blocks a win. Returns the move, or null.
  const r = rules(g, s);
  const ranks = deckRanks(g.deck);
  const safe = (card) => {
    for (let suit = 0; suit < 4; suit++) {
      for (const rank of ranks) {
        if (rank !== r.ranks[0] && builds(g, rank, suit, rankOf(card), suitOf(card))
            && !r.isHome(rank, suit)) return false;
      }
    }
    return true;
  };
  const tops = s.columns.map((c, i) => [String(i + 1), c[c.length - 1]]);
  const held = s.cells.map((c, i) => [CELL_LETTERS[i], c]);
  for (const [place, card] of [...tops, ...held]) {
    if (card && r.goesHome(card) && safe(card)) return place + "h";
  }
  return null;
}

// ---------------------------------------------------------------- the rules panel

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];
const BUILD_WORDS = {
  suit: "down by suit (a card goes on the next higher card of its own suit)",
  alternate: "down in alternate colours (a red card on a black one a rank higher, and the reverse)",
  any: "down regardless of suit (any card on any card a rank higher)",
};

function lengthsText(lengths) {
  const groups = [];
  for (const n of lengths) {
    const last = groups[groups.length - 1];
    if (last && last.n === n) last.count++; else groups.push({n, count: 1});
  }
  if (groups.length === 1) return lengths.length + " columns of " + lengths[0] + " cards";
  return lengths.length + " columns of " + lengths.join(", ") + " cards";
}

function rulesText(g) {
  // the rules panel: one line a rule, from the game's fields (docs/rules.md)
  const lines = [];
  const king = g.base_from_deal ? "a card of the rank below the base" : "a king";
  lines.push(["Goal", "Move every card home to the four foundations, each built up by suit from " +
    (g.base_from_deal ? "the base rank (the rank of the first card dealt) round the corner: K, then A"
      : g.deck === 36 ? "the ace, then 6 to K" : "the ace to the king") + "."]);
  let deal = (g.deck === 36 ? "A 36-card deck (A and 6 to K of each suit). " : "One 52-card deck. ") +
    "Every card is dealt face up into " + lengthsText(g.column_lengths) + ".";
  if (g.aces_on_foundations) deal += " The four aces start home.";
  if (g.home_aces) deal += " The last " + NUMBER_WORDS[g.home_aces] + " aces dealt go home at the start.";
  if (g.base_from_deal) deal += " The other three cards of the base rank start home.";
  if (g.dealt_cells.length) {
    deal += " One card each is dealt to cell" + (g.dealt_cells.length > 1 ? "s " : " ") +
      g.dealt_cells.map((i) => CELL_LETTERS[i]).join(", ") + ".";
  }
  if (g.kings_to_bottom) deal += " Kings are moved to the bottom of their columns.";
  if (g.deal_to_foundations) deal += " A card that fits a foundation while dealing goes there instead.";
  lines.push(["Deal", deal]);
  lines.push(["Cells", g.cells ? (g.cells === 1 ? "One free cell" : NUMBER_WORDS[g.cells].replace(/^./, (c) => c.toUpperCase()) +
    " free cells") + ", each holding any one card." : "No free cells."]);
  lines.push(["Building", "Columns build " + BUILD_WORDS[g.build] + "." +
    (g.wrap ? " Round the corner: a king goes on the ace of its suit." : "")]);
  lines.push(["Empty columns", {any: "An empty column takes any card" + (g.moves === "single" ? "." : " or run."),
    kings: "An empty column takes only " + king + (g.moves === "single" ? "." : ", with its run."),
    none: "An empty column stays empty: nothing may go there."}[g.empty]]);
  lines.push(["Moving", {single: "One card at a time: the top card of a column or a card in a cell.",
    supermove: "One card at a time; a run moves as the chain of single moves it stands for, so at most " +
      (g.empty === "any" ? "(free cells + 1) × 2^(empty columns)" : "free cells + 1") + " cards at once.",
    sequence: "A run moves whole, whatever its length."}[g.moves]]);
  if (g.auto_aces) lines.push(["Aces", "An exposed ace goes home at once."]);
  lines.push(["Home", "A card on a foundation stays there."]);
  return lines;
}

function autoHomeDefault(g) {
  // where cards build by suit every card that goes home is safe, so auto-move would send
  // each at once and take the game's one decision away: off there unless chosen
  return g.build !== "suit";
}
