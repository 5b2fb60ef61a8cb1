// The line of play a search returns: the moves from the start to a win, written out.
#pragma once

#include <vector>

#include "moves.hpp"
#include "search.hpp"

namespace bakers {

// Writes the line `chain` (the moves the search made, from the settled start) into
// res.moves (each move expanded into the single-card moves the rules want) and
// res.compact (supermoves kept whole); the safe foundation moves that the search made
// silently after each move are written out in both.
void rebuild(const MoveGen& gen, const State& start, const std::vector<Move>& chain, Result& res);

}  // namespace bakers
