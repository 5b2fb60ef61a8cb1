#include "moves.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <optional>
#include <utility>

#include "column_masks.hpp"

namespace bakers {

MoveGen::MoveGen(const Rules& rules) : r_(rules) {
    // A range makes a MoveGen for each deal, all for the same rules: the thread's last
    // one is copied rather than worked out again.
    thread_local std::optional<MoveGen> last;
    if (last && last->r_ == rules) {
        *this = *last;
        return;
    }
    // Only a card one rank lower can build on a card (a king on an ace, round the
    // corner, where the rules wrap): 4 candidates each, not 52. The wrap lives in these
    // tables alone, so it costs the other games nothing.
    for (int t = 0; t < kSuits; ++t)
        for (int rt = kAce; rt <= kKing; ++rt)
            for (int m = 0; m < kSuits; ++m) {
                const Card target = make_card(t, rt);
                const Card moving = make_card(m, rt == kAce ? kKing : rt - 1);
                if (r_.builds_on(moving, target)) {
                    onto_[target] |= bit_of(moving);
                    under_[moving] |= bit_of(target);
                }
            }
    for (int f = 0; f <= kMaxCells; ++f)
        for (int e = 0; e <= kMaxColumns; ++e) limit_[f][e] = static_cast<std::uint8_t>(count_limit(f, e));
    last = *this;
}

Keyed MoveGen::start(const State& s) const {
    Keyed k;
    k.s = s;
    k.rehash(r_.columns, r_.cells);
    settle(k, nullptr);
    return k;
}

int MoveGen::top_run(const State& s, int i) const {
    const int b = s.begin(i), e = s.end[i];
    if (e == b) return 0;
    int p = e - 1;
    while (p > b && builds(s.cards[p], s.cards[p - 1])) --p;
    return e - p;
}

int MoveGen::count_limit(int free_cells, int empties) const {
    switch (r_.moves) {
        case Moves::Single: return 1;
        case Moves::Sequence: return kMaxCards;
        case Moves::Supermove: break;
    }
    const int cells = free_cells + 1;
    if (r_.empty != Empty::Any) return cells;
    return std::min(kMaxCards, cells << std::clamp(empties, 0, 6));
}

int MoveGen::supermove_limit(const State& s, bool to_empty) const {
    return limit_of(free_cells(s, r_.cells), empty_columns(s, r_.columns) - (to_empty ? 1 : 0));
}

void MoveGen::generate(const State& s, MoveList& out) const {
    const int ncols = r_.columns;
    Card tops[kMaxColumns];
    int first_empty = -1, empties = 0;
    CardSet top_set = 0;       // the top cards of the columns ...
    std::uint8_t top_col[64];  // ... and the column of each
    for (int i = 0; i < ncols; ++i) {
        tops[i] = s.top(i);
        if (tops[i] == kNoCard) {
            if (first_empty < 0) first_empty = i;
            ++empties;
        } else {
            top_set |= bit_of(tops[i]);
            top_col[tops[i]] = static_cast<std::uint8_t>(i);
        }
    }
    int first_cell = -1, free_cells = 0;
    for (int i = 0; i < r_.cells; ++i)
        if (s.cells[i] == kNoCard) {
            if (first_cell < 0) first_cell = i;
            ++free_cells;
        }
    const int limit = limit_of(free_cells, empties);
    const int limit_empty = first_empty >= 0 ? limit_of(free_cells, empties - 1) : 0;

    // Cards in cells: home, onto a column, into the first empty column.
    for (int c = 0; c < r_.cells; ++c) {
        const Card card = s.cells[c];
        if (card == kNoCard) continue;
        const auto from = static_cast<std::uint8_t>(kCell + c);
        if (goes_home(s, card)) out.add(from, kFoundation, 1);
        // The columns whose top it builds on, in column order.
        unsigned cols = 0;
        for (CardSet t = under_[card] & top_set; t; t &= t - 1) cols |= 1U << top_col[__builtin_ctzll(t)];
        for (; cols; cols &= cols - 1) out.add(from, static_cast<std::uint8_t>(__builtin_ctz(cols)), 1);
        if (first_empty >= 0 && r_.empty_takes(card))
            out.add(from, static_cast<std::uint8_t>(first_empty), 1);
    }
    // Where each card of a top run sits: its column and its depth below the top.
    CardSet in_runs = 0;
    std::uint8_t run_col[64], run_depth[64];
    int runs[kMaxColumns];
    // When at most one card moves at a time (no room for more, or the rules), only the
    // top cards can move: each walk stops at the top (the same moves, without walking the
    // runs down: Baker's Dozen's runs are long, and only their tops move).
    const bool tops_only = limit <= 1 && limit_empty <= 1;
    for (int i = 0; i < ncols; ++i) {  // each run walked once, from the top down (top_run)
        const int b = s.begin(i);
        int p = s.end[i] - 1;
        for (int k = 0; p >= b; ++k, --p) {
            const Card c = s.cards[p];
            in_runs |= bit_of(c);
            run_col[c] = static_cast<std::uint8_t>(i);
            run_depth[c] = static_cast<std::uint8_t>(k);
            if (p == b || tops_only || !builds(c, s.cards[p - 1])) {
                --p;
                break;
            }
        }
        runs[i] = s.end[i] - 1 - p;  // the part of the top run walked
        assert(runs[i] == (tops_only ? std::min(top_run(s, i), 1) : top_run(s, i)));
    }
    // Top cards home and into the first empty cell.
    for (int i = 0; i < ncols; ++i) {
        const Card top = tops[i];
        if (top == kNoCard) continue;
        const auto from = static_cast<std::uint8_t>(i);
        if (goes_home(s, top)) out.add(from, kFoundation, 1);
        if (first_cell >= 0) out.add(from, static_cast<std::uint8_t>(kCell + first_cell), 1);
    }
    // Onto each non-empty column: a card that builds on its top, with the part of its run
    // above it. Within a run ranks fall by one, so each such card gives one move; the
    // candidates come in card order, that is suit by suit.
    for (int d = 0; d < ncols; ++d) {
        const Card t = tops[d];
        if (t == kNoCard) continue;
        for (CardSet cand = onto_[t] & in_runs; cand; cand &= cand - 1) {
            const Card c = static_cast<Card>(__builtin_ctzll(cand));
            if (run_col[c] == d) continue;
            const int n = run_depth[c] + 1;
            if (n <= limit) out.add(run_col[c], static_cast<std::uint8_t>(d), n);
        }
    }
    // Into the first empty column: any part of a top run the rule lets in.
    if (first_empty >= 0 && r_.empty != Empty::None) {
        for (int i = 0; i < ncols; ++i) {
            if (tops[i] == kNoCard) continue;
            const int size = s.size(i);
            const int most = std::min(runs[i], limit_empty);
            for (int n = 1; n <= most; ++n) {
                if (n == size) break;  // the whole column: a mere reordering of columns
                if (r_.empty_takes(s.cards[s.end[i] - n]))
                    out.add(static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(first_empty), n);
            }
        }
    }
}

template <class Position>
void MoveGen::apply(Position& k, Move m) const {
    if (is_column(m.from) && is_column(m.to)) {
        k.move_cards(m.from, m.to, m.count);
        return;
    }
    Card c = is_column(m.from) ? k.pop(m.from) : k.take_cell(m.from - kCell);
    if (m.to == kFoundation)
        ++k.s.found[suit_of(c)];
    else if (is_cell(m.to))
        k.put_cell(m.to - kCell, c);
    else
        k.push(m.to, c);
}

// When a card may go home without losing a win. Call a card *clear* when every card that
// builds on it (a card of the deck) is home, or is next on its foundation and clear
// itself. `safe_home(c)` holds when c, next on its foundation, is clear. (When building by
// suit the one card that builds on c is the suit's card below it, home since c is next:
// every next card is safe, except an ace where the rules wrap: the king of its suit builds
// on it and is neither home nor next while the ace is next (its foundation is empty), so
// in a wrapping game no ace goes home by itself, and every other next card does. When
// building by alternating colour, a red r is clear when each black r-1 is home or next
// with every red r-2 home or next, that is when both black foundations reach r-2 and the
// other red one r-3, or both black r-1 are home. A 36-card deck has no rank 5: nothing
// builds on a 6; without the wrap nothing builds on an ace.)
//
// The wrap needs no proof of its own: the proof below reads the building rule only as
// "builds on" (the tables onto_ and under_, where the king on the ace is one more entry)
// and the foundations only as "home" and "next" (heights, which the wrap leaves alone:
// a foundation still runs from the ace up to the king). The recursion of safe_home ends:
// it goes from a next card to a next card that builds on it, one rank lower round the
// corner; a cycle would need a multiple of 13 such cards, and at most 4 cards are next.
//
// Proof that sending c home then cannot lose a win. Let W be a winning line from the
// position P, and P' be P with c home. Build a line W' from P' that keeps a set R of the
// cards home in W' but not in W (at first R = {c}), with this invariant after each step:
// the position of W' is that of W with the cards of R taken out, and every card lying on
// a card of R in W is in R. (So each column of W' is W's column with some top cards
// removed, and its cells are W's with some cards removed.) Go through W's moves:
//  - a move of cards of R only (home in W' already): skip it; a card of R going home in
//    W leaves R.
//  - a move whose moved cards all lie outside R onto a target outside R (a column card,
//    a cell, an empty column or a foundation): make it in W'. The moved cards are the
//    same (nothing of R lies on them: a card lying on an R card is in R), the target is
//    there, and W' has at least W's free cells and empty columns, so no supermove limit
//    is passed; a foundation move finds its card's predecessor home (W' has more home).
//  - a move whose lower moved cards lie outside R and upper ones in R (a sequence that
//    carries cards of R): move the lower part alone, as above (fewer cards).
//  - a move of cards outside R onto a card of R (at the top of its column in W): send the
//    moved cards home in W', the top one first, and add them to R. Each builds on the
//    one below it and the lowest builds on a card of R, so by induction from c each is a
//    card that builds on a clear card: home already (then it could not be in play in W,
//    a contradiction) or next and clear when c went home. Foundations only grow, so "next"
//    then means "next or home" now; going down the moved cards from the top, each one's
//    predecessor is home when its turn comes. Every card that later lands on them in W
//    builds on a clear card too, so this case repeats for it, and the invariant holds.
// W ends with every card home; so does W' (W' has at least W's cards home). Mandatory ace
// moves fit too: an ace exposed earlier in W' goes home at once, and an ace is clear
// (nothing builds on it: a game with auto_aces never wraps, Rules::validate), so it is
// handled as a card of R. The condition reads only the
// foundations, so a move that leaves them alone changes no card's safety (settle_after
// relies on it).
bool MoveGen::safe_home(const State& s, Card c) const {
    for (CardSet on = onto_[c]; on; on &= on - 1) {
        const Card y = static_cast<Card>(__builtin_ctzll(on));
        const int r = rank_of(y), t = suit_of(y);
        if (!r_.has_rank(r)) continue;                         // not in this deck
        const int height = r_.height_of_rank(r);
        if (s.found[t] >= height) continue;                     // home
        if (s.found[t] + 1 != height || !safe_home(s, y)) return false;  // not next, or not clear
    }
    return true;
}

template <class Position>
int MoveGen::send_aces(Position& k) const {
    int sent = 0;
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < r_.columns; ++i) {
            const Card t = k.s.top(i);
            if (t != kNoCard && rank_of(t) == kAce) {
                k.pop(i);
                ++k.s.found[suit_of(t)];
                ++sent;
                again = true;
            }
        }
    }
    return sent;
}

// Each round sends home the top of the first column (by index) whose top is next and
// safe, else the card of the first such cell, after the exposed aces where auto_aces
// holds; it ends when no card is left to send. The columns' tops and the cells' cards are
// kept as sets (with the place of each), changed only where a card left, so a round looks
// at the next cards alone: at most one a suit.
template <class Position>
int MoveGen::settle(Position& k, std::vector<Move>* recorded, bool safe) const {
    int sent = r_.auto_aces ? send_aces(k) : 0;
    if (!safe) return sent;
    CardSet tops = 0, held = 0;  // the columns' tops, the cells' cards
    std::uint8_t place[64];      // the column of each card of tops, the cell of each of held
    auto find_tops = [&] {
        tops = 0;
        for (int i = 0; i < r_.columns; ++i)
            if (const Card t = k.s.top(i); t != kNoCard) {
                tops |= bit_of(t);
                place[t] = static_cast<std::uint8_t>(i);
            }
    };
    find_tops();
    for (int i = 0; i < r_.cells; ++i)
        if (const Card t = k.s.cells[i]; t != kNoCard) {
            held |= bit_of(t);
            place[t] = static_cast<std::uint8_t>(i);
        }
    CardSet next = next_cards(k.s);
    // The first place (by index) among `from` whose card is next and safe, or -1.
    auto first_safe = [&](CardSet from) {
        int best = -1;
        for (CardSet cand = next & from; cand; cand &= cand - 1) {
            const Card t = static_cast<Card>(std::countr_zero(cand));
            if ((best < 0 || place[t] < best) && safe_home(k.s, t)) best = place[t];
        }
        return best;
    };
    for (;;) {
        Card gone;
        if (const int col = first_safe(tops); col >= 0) {
            gone = k.pop(col);
            tops &= ~bit_of(gone);
            if (const Card t = k.s.top(col); t != kNoCard) {
                tops |= bit_of(t);
                place[t] = static_cast<std::uint8_t>(col);
            }
            if (recorded) recorded->push_back(Move{static_cast<std::uint8_t>(col), kFoundation, 1});
        } else if (const int cell = first_safe(held); cell >= 0) {
            gone = k.take_cell(cell);
            held &= ~bit_of(gone);
            if (recorded) recorded->push_back(Move{static_cast<std::uint8_t>(kCell + cell), kFoundation, 1});
        } else {
            return sent;
        }
        const int suit = suit_of(gone);
        ++k.s.found[suit];
        ++sent;
        next &= ~bit_of(gone);
        if (k.s.found[suit] < r_.suit_size())
            next |= bit_of(make_card(suit, r_.rank_at_height(k.s.found[suit] + 1)));
        if (r_.auto_aces) {
            if (const int aces = send_aces(k)) {
                sent += aces;
                find_tops();
                next = next_cards(k.s);
            }
        }
    }
}

template int MoveGen::settle(Keyed&, std::vector<Move>*, bool) const;
template int MoveGen::settle(Unkeyed&, std::vector<Move>*, bool) const;

// Why checking the one card that m uncovers is enough. `parent` was settled: none of its
// exposed cards or cell cards was an ace to send home (auto_aces) or a safe next card.
// A move to a column or a cell leaves the foundations as they were, so which cards are
// next and which are safe stay the same. The cards exposed or in cells after m are those
// of before, minus the ones m covers, plus the moved card, which was exposed or in a cell
// already (a longer moved sequence ends with the card that was on top), plus the card
// that m uncovers in its source column. Only that last one can start a settle.
template <class Position>
int MoveGen::settle_after(Position& k, Move m, std::vector<Move>* recorded) const {
    if (m.to == kFoundation) return settle(k, recorded);
    if (!is_column(m.from)) return 0;
    const Card t = k.s.top(m.from);
    if (t == kNoCard) return 0;
    const bool ace = r_.auto_aces && rank_of(t) == kAce;
    if (!ace && !(goes_home(k.s, t) && safe_home(k.s, t))) return 0;
    return settle(k, recorded);
}

template void MoveGen::apply(Keyed&, Move) const;
template void MoveGen::apply(Unkeyed&, Move) const;
template int MoveGen::settle_after(Keyed&, Move, std::vector<Move>*) const;
template int MoveGen::settle_after(Unkeyed&, Move, std::vector<Move>*) const;

// The uncovered card is tested as settle_after tests it (on the parent's foundations,
// which a quiet move leaves as they are).
bool MoveGen::quiet(const State& s, Move m) const {
    if (m.to == kFoundation) return false;
    if (is_cell(m.from)) return true;  // a cell card onto a column: nothing is uncovered
    if (s.size(m.from) > m.count) {
        const Card t = s.cards[s.end[m.from] - m.count - 1];
        if (r_.auto_aces && rank_of(t) == kAce) return false;
        if (goes_home(s, t) && safe_home(s, t)) return false;
    }
    return true;
}

// The keys come from Keyed's previews (zobrist.hpp), the ones its changes apply.
bool MoveGen::quiet_key(const Keyed& k, Move m, QuietChange& change) const {
    if (!quiet(k.s, m)) return false;
    if (is_cell(m.from))
        change.key = k.key_after_from_cell(m.from - kCell, m.to, change.to_column);
    else if (is_cell(m.to))
        change.key = k.key_after_to_cell(m.from, change.from_column);
    else
        change.key = k.key_after_move(m.from, m.to, m.count, change.from_column, change.to_column);
    return true;
}

// The same previews as above, the hashes left in locals: the searches that want the key
// alone (depth first, best first) pay for no stores they do not read.
bool MoveGen::quiet_key(const Keyed& k, Move m, Key& key) const {
    if (!quiet(k.s, m)) return false;
    Key ls, ld;
    if (is_cell(m.from))
        key = k.key_after_from_cell(m.from - kCell, m.to, ld);
    else if (is_cell(m.to))
        key = k.key_after_to_cell(m.from, ls);
    else
        key = k.key_after_move(m.from, m.to, m.count, ls, ld);
    return true;
}

// apply's moves on the State alone; the hashes are the ones Keyed's own changes would
// set (quiet_key took them from the same previews).
void MoveGen::apply_quiet(Keyed& k, Move m, const QuietChange& change) const {
    assert(m.to != kFoundation);
    if (is_cell(m.from)) {
        k.s.push(m.to, std::exchange(k.s.cells[m.from - kCell], kNoCard));
        k.col[m.to] = change.to_column;
    } else if (is_cell(m.to)) {
        k.s.cells[m.to - kCell] = k.s.pop(m.from);
        k.col[m.from] = change.from_column;
    } else {
        k.s.move_cards(m.from, m.to, m.count);
        k.col[m.from] = change.from_column;
        k.col[m.to] = change.to_column;
    }
    k.key = change.key;
}

std::vector<Move> MoveGen::expand(const State& s, Move m) const {
    std::vector<Move> out;
    expand(s, m, out);
    return out;
}

void MoveGen::expand(const State& s, Move m, std::vector<Move>& out) const {
    if (!expands(m)) {
        out.push_back(m);
        return;
    }
    State copy = s;
    unsigned empties = 0;
    if (r_.empty == Empty::Any)
        for (int i = 0; i < r_.columns; ++i)
            if (copy.size(i) == 0 && i != m.to) empties |= 1U << i;
    expand_into(copy, m.from, m.to, m.count, empties, out);
}

// Moves n cards (a sequence) from src to dst through the free cells and the e empty
// columns `empties` (a bit mask): with k free cells n <= k + 1 goes through the cells; a
// longer one first parks min((k + 1) * 2^(e - 1), n - 1) cards on the first empty column,
// moves the rest with one empty column fewer, then brings the parked cards over; so any
// n <= (k + 1) * 2^e fits. (The referee, board.py's _chain, splits the same way, so a
// supermove expands to the same single moves in both.)
void MoveGen::expand_into(State& s, int src, int dst, int n, unsigned empties, std::vector<Move>& out) const {
    int free[kMaxCells];
    int k = 0;
    for (int i = 0; i < r_.cells; ++i)
        if (s.cells[i] == kNoCard) free[k++] = i;
    if (n <= k + 1) {
        for (int j = 0; j < n - 1; ++j) {
            s.cells[free[j]] = s.pop(src);
            out.push_back(Move{static_cast<std::uint8_t>(src), static_cast<std::uint8_t>(kCell + free[j]), 1});
        }
        s.move_cards(src, dst, 1);
        out.push_back(Move{static_cast<std::uint8_t>(src), static_cast<std::uint8_t>(dst), 1});
        for (int j = n - 2; j >= 0; --j) {
            s.push(dst, s.cells[free[j]]);
            s.cells[free[j]] = kNoCard;
            out.push_back(Move{static_cast<std::uint8_t>(kCell + free[j]), static_cast<std::uint8_t>(dst), 1});
        }
        return;
    }
    assert(empties != 0);
    const int park = __builtin_ctz(empties);
    empties &= empties - 1;
    const int part = std::min((k + 1) << __builtin_popcount(empties), n - 1);
    expand_into(s, src, park, part, empties, out);
    expand_into(s, src, dst, n - part, empties, out);
    expand_into(s, park, dst, part, empties, out);
}

}  // namespace bakers
