// Restricted passes: depth-first searches of a smaller space than the game's, which can
// only find wins.
//
// Two restrictions shrink the space (either or both):
//  - Every card home at once. After each move, every card that is next on its foundation
//    (the top of a column or in a cell) goes home, the provably safe ones and the others
//    alike, until none is left; the exact searches send only the safe ones
//    (MoveGen::safe_home). A card sent home too early can lose a win (in Beleaguered
//    Castle a four that a three was to be parked on), so the pass searches a subset of
//    the lines of play.
//  - Suits merged. In a game that builds regardless of suit (`Build::Any`) a card's
//    suit matters only on its foundation. The pass's visited set keys a position by its
//    cards' ranks alone (which rank lies where) and its foundations' heights as a
//    multiset, and skips a position whose key it holds. Some positions that share a key
//    are the same game up to the names of the suits (renaming the suits, the
//    foundations with them, maps a position to one that is won exactly when it is);
//    others are not (two fives of different suits swapped: each now waits for another
//    four), so the merge can skip the one position of a key that wins.
//
// Why a win found is a real win: the pass keeps real positions, each made from the one
// before by MoveGen::apply and MoveGen::settle_after of a move MoveGen::generate gave, or
// of a move home of a card that is next on its foundation (a legal move in every game);
// the key only decides which positions are skipped, never what a position is. The line
// it returns is those moves, the moves home written out, rebuilt by `rebuild` (line.hpp)
// as every search's line; the tests replay each through an independent reading of the
// rules and the referee. Why nothing else can be concluded: skipping and sending home
// early drop lines of play, so a pass that runs dry has proved nothing (it answers
// "unknown", never "impossible").
#pragma once

#include <string_view>

#include "depth_first.hpp"
#include "search.hpp"

namespace bakers {

// Which restrictions a pass makes, and the order of a frame's children (heuristic.hpp's
// priorities, the best first).
struct Streamline {
    bool all_home = true;     // every card that can go home goes home at once
    bool merge_suits = true;  // suits merged in the key (only where suits_interchangeable)
    ChildOrder order = ChildOrder::Progress;
};

// The reason of a pass that ran dry without a win: its space is searched, a larger
// budget would search it again to the same end.
inline constexpr std::string_view kRestrictedDry = "restricted space searched";

// Returns true if the rules never look at a card's suit but on the foundations: cards
// build regardless of suit (no rule of `Rules` reads a suit otherwise; the wrap needs
// building by suit).
inline bool suits_interchangeable(const Rules& r) { return r.build == Build::Any && !r.wrap; }

// Looks for a win from `start` in the space that `how` restricts the game to, depth
// first, within the caller's limits. Returns Solved with a line the rules allow from
// `start`, or Unknown: a limit's reason, or kRestrictedDry when the restricted space has
// no win; never Impossible. `how.merge_suits` is ignored where the suits are not
// interchangeable.
Result solve_streamlined(const Rules& rules, const State& start, const Limits& limits,
                         const std::atomic<bool>* stop, const StopPoll& poll, Streamline how = {});

}  // namespace bakers
