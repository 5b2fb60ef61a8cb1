// Dead ends: positions without a win that a quick count of what can ever move shows,
// in the games without free space where a card moves alone (Baker's Dozen: no cells,
// an empty column takes nothing). Every search skips the children of such a position.
//
// The count. For a position P, follow each column down from its top: a card *can leave*
// when every card above it can leave (so it can come to the top) and it can either go
// home, or go onto a card it builds on that is not home and *can be exposed*: one whose
// cards above it can all leave. A card *can go home* when it can come to the top and the
// card before it on its foundation is home or can go home. The count grows these sets until nothing
// changes; P is a dead end when some card not home cannot go home.
//
// Why a dead end has no win. Take any winning line from P. Every card x of P not home
// goes home in it, so x moves; call its first move leave(x). At leave(x) x is a column's
// top, so every card above x in P left before it. x goes either home, the card before it
// on its foundation home before, or onto a card t it builds on, at the top of its column
// then, so t is not home in P (no card comes back from a foundation) and every card above
// t in P left before: before leave(x) if t never moved, else before leave(t) < leave(x).
// When x goes home (at leave(x) or later), the cards above it in P have left and the card
// before it is home. Taking these moves (each card's first move and its move home) in the
// line's order, each meets the count's condition with moves taken before it, so (by
// induction) the count holds every card that leaves and every card that goes home in the
// line: every card of P not home. So when the count misses a
// card, no winning line exists. The count only adds, and a column's count only goes
// down it, so it ends after at most one step per card.
//
// Where it is not used. With a free cell any exposed card can leave, and an empty column
// that takes cards is another place to go; a card that moves with the cards above it
// (sequence moves) need not wait for them to leave: the proof above needs each of the
// three rules, so the check is off for every game without all of them.
#pragma once

#include <array>

#include "moves.hpp"

namespace bakers {

class DeadEnds {
public:
    explicit DeadEnds(const MoveGen& gen);
    // Returns true if the check applies to the rules (no cells, an empty column takes
    // nothing, a card moves alone).
    bool active() const { return active_; }
    // Returns true if s is a dead end (always false when the check is not active).
    bool dead(const State& s) const { return active_ && dead_here(s); }

private:
    bool dead_here(const State& s) const;
    Rules r_;
    bool active_ = false;
    CardSet deck_ = 0;                  // every card of the deck
    std::array<CardSet, 64> under_{};   // under_[c]: the cards that c builds on (MoveGen's)
    std::array<Card, 64> next_{};       // next_[c]: the card after c on its foundation (or none)
    std::array<CardSet, 64> before_{};  // before_[c]: the card before c on its foundation (or none)
    std::array<std::array<CardSet, 14>, kSuits> home_{};  // home_[t][h]: suit t's first h cards
};

}  // namespace bakers
