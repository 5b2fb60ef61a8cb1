// The dive: a first stage that only looks for wins, cheaply, before an exact search.
//
// Several depth-first scans take turns. They share one visited set; each keeps its own
// line of frames from the start; a frame holds its position and its children, ordered
// once by their class alone (no child is made or scored to order them; the first scan
// lists its later classes only once the earlier ones are spent), and its
// children are made one at a time, when their turn comes: a child whose key is already
// in the visited set, found by this scan or another, is passed over without being made
// (a position one scan has searched below, another need not search again). A scan
// runs for a quota of expanded positions, then hands over to the next, keeping its line
// to go on from where it stopped; the quotas grow every round, so an ordering that is
// lost in a deal costs a bounded share of the work.
//
// The dive never says "impossible": when its budget is spent it answers "unknown" and
// the caller runs an exact search. Its wins are lines of moves the rules allow, each
// made by MoveGen::apply from the position before (every child is made that way), so
// a win is as sound as any other search's; the tests replay each through the referee.
//
// Which moves a scan tries (dive.cpp): moves home, then cell cards onto columns, then
// digs (the cards above a foundation's next card moved off as one step and the card sent
// home), then parts of columns onto cards they build on, then the card below a top moved
// onto a parent as one step, then moves into an empty column; the scans after the first
// take the parts onto parents and the cards below tops onto parents before the cell cards
// and the digs. A dig is listed only when
// its cards fit somewhere on the way (followed on the columns' tops before it is listed),
// and its steps are made without keys, the changed columns hashed once at the end. It
// never moves a card into a
// cell alone, nor a part that lies on a card it builds on: such moves only shuffle, and
// leaving them out keeps a scan's line short and direct (its lines are about as long as
// best first's). So a scan can run dry with a win left: the exact search finds it.
//
// The wide dive (DiveMoves::Wide) is the same with one more class, a column's top card
// into the first free cell, after the others: its scans reach the wins that need a card
// parked. `solve` runs it where the dive gives up at its budget in the games built by
// suit (solve.cpp).
#pragma once

#include <cstdint>

#include "search.hpp"

namespace bakers {

// The dive's budget of expanded positions before the exact search takes over, as
// `solve` runs it (Method::Dive), in every game: chosen on a training range of FreeCell
// deals (docs/benchmarks.md, "The dive"), and checked on training ranges of the games
// built by suit, where depth first comes behind it (docs/benchmarks.md, "FreeCell in CPU
// time, fifth round").
inline constexpr std::uint64_t kDiveBudget = 3000;

// Which moves the scans try: the direct ones (dive.cpp), or those and a column's top card
// into a free cell (the wide dive, which `solve` runs where the dive gives up at its
// budget in a game built by suit).
enum class DiveMoves : std::uint8_t { Direct, Wide };

// The wide dive's budget, as `solve` runs it after the dive gives up (solve.cpp): chosen
// on training ranges of Seahaven Towers and Eight Off (docs/benchmarks.md, "The wide dive
// where the dive spends its budget").
inline constexpr std::uint64_t kWideDiveBudget = 2000;

// Looks for a win from `start` with the dive's scans, within `budget` expanded positions
// (and the caller's limits). Returns Solved with a line, or Unknown (reason "dive
// budget", or the limit that stopped it); never Impossible. With `line` false and rules
// without auto_aces, a win's moves are counted (Result::move_count), not written out.
Result solve_dive(const Rules& rules, const State& start, const Limits& limits,
                  const std::atomic<bool>* stop, const StopPoll& poll, std::uint64_t budget,
                  bool line = true, DiveMoves moves = DiveMoves::Direct);

}  // namespace bakers
