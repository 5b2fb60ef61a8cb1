// Dead ends (dead_end.hpp): never a position with a win, on random small positions whose
// verdict a plain exhaustive search gives; known ones by construction; off where the
// rules give free space.

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dead_end.hpp"
#include "support.hpp"

namespace {

using namespace support;

// Returns true if a win is reachable from s: every position, depth first, no pruning
// but MoveGen's (the dead-end check is not used). `budget` bounds the positions; when
// it runs out, `complete` turns false.
bool winnable(const MoveGen& gen, const State& s, int& budget, bool& complete) {
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
    std::vector<Keyed> stack{gen.start(s)};
    seen.insert({stack[0].key.lo, stack[0].key.hi});
    while (!stack.empty()) {
        const Keyed k = stack.back();
        stack.pop_back();
        if (gen.won(k.s)) return true;
        if (--budget < 0) return complete = false, false;
        MoveList moves;
        gen.generate(k.s, moves);
        for (int i = 0; i < moves.size; ++i) {
            Keyed child = k;
            gen.apply(child, moves.moves[i]);
            gen.settle(child, nullptr);
            if (seen.insert({child.key.lo, child.key.hi}).second) stack.push_back(child);
        }
    }
    return false;
}

// Returns a random position of `r` with the low cards of each suit home and `left`
// cards (about) dealt at random into the columns, kings anywhere.
State random_position(const Rules& r, std::mt19937_64& rng, int left) {
    Layout layout;
    layout.columns.resize(r.columns);
    std::vector<Card> cards;
    for (int t = 0; t < kSuits; ++t) {
        const int keep = std::uniform_int_distribution<int>(0, std::min(left, r.suit_size()))(rng);
        left -= keep;
        layout.found[t] = static_cast<std::uint8_t>(r.suit_size() - keep);
        for (int h = r.suit_size() - keep + 1; h <= r.suit_size(); ++h)
            cards.push_back(make_card(t, r.rank_at_height(h)));
    }
    std::shuffle(cards.begin(), cards.end(), rng);
    // A few columns only, so that cards lie on one another.
    const int used = std::uniform_int_distribution<int>(2, 5)(rng);
    for (Card c : cards) layout.columns[std::uniform_int_distribution<int>(0, used - 1)(rng)].push_back(c);
    return state_from_layout(r, layout);
}

TEST(dead_end_never_has_a_win) {
    // Random positions of 6 to 14 cards: every dead end is lost by exhaustive search, and
    // the check finds most lost ones (else it would be a test of nothing).
    const Rules& r = preset("bakers_dozen");
    const MoveGen gen(r);
    const DeadEnds dead{MoveGen(r)};
    CHECK(dead.active());
    std::mt19937_64 rng(20261201);
    int dead_ends = 0, lost = 0, won = 0, open = 0;
    for (int i = 0; i < 3000; ++i) {
        const State s = random_position(r, rng, 6 + i % 9);
        int budget = 200'000;
        bool complete = true;
        const bool win = winnable(gen, s, budget, complete);
        if (!complete) {
            ++open;
            continue;
        }
        const bool is_dead = dead.dead(s);
        if (is_dead && win) {
            check::Context ctx("position " + std::to_string(i));
            CHECK(!(is_dead && win));
        }
        won += win;
        lost += !win;
        dead_ends += is_dead;
    }
    CHECK(won > 300);
    CHECK(lost > 300);
    CHECK(dead_ends * 2 > lost);  // the check sees more than half of the lost positions
    CHECK(open < 30);
}

TEST(dead_end_a_card_on_its_own_target) {
    // 3H covers 2H, and its only way off is onto 4H, which lies under both: no win.
    const Rules& r = preset("bakers_dozen");
    const DeadEnds dead{MoveGen(r)};
    const std::array<int, 4> found{1, 13, 13, 13};
    const State lost = make_state(r, {"4H 2H 3H", "KH QH JH TH 9H 8H 7H 6H 5H"}, {}, found);
    CHECK(dead.dead(lost));
    const Result res = solve(r, lost, Limits{});
    CHECK_EQ(res.verdict, Verdict::Impossible);
    CHECK_EQ(res.stats.expanded, 1u);  // told at the first position
    // With 2H on top every card goes home in turn.
    const State won = make_state(r, {"4H 3H 2H", "KH QH JH TH 9H 8H 7H 6H 5H"}, {}, found);
    CHECK(!dead.dead(won));
    CHECK_EQ(solve(r, won, Limits{}).verdict, Verdict::Solved);
    // A 4 of another suit on a column of its own frees 3H.
    const State freed = make_state(r, {"4H 2H 3H", "KH QH JH TH 9H 8H 7H 6H 5H", "4C",
                                      "KC QC JC TC 9C 8C 7C 6C 5C"},
                                   {}, {1, 3, 13, 13});
    CHECK(!dead.dead(freed));
    CHECK_EQ(solve(r, freed, Limits{}).verdict, Verdict::Solved);
}

TEST(dead_end_a_cycle_of_two_cards) {
    // 5S covers 2S and can go only onto 6S, which 3S covers; 3S can go home only after 2S,
    // or onto 4S, which lies under 5S: each waits on the other.
    const Rules& r = preset("bakers_dozen");
    const State s = make_state(r, {"4S 2S 5S", "6S 3S", "KS QS JS TS 9S 8S 7S"}, {}, {13, 13, 13, 1});
    CHECK(DeadEnds(MoveGen(r)).dead(s));
    int budget = 100'000;
    bool complete = true;
    CHECK(!winnable(MoveGen(r), s, budget, complete));
    CHECK(complete);
    // With 6S free of 3S (3S on a column of its own) 5S goes onto it and all goes home.
    const State freed = make_state(r, {"4S 2S 5S", "6S", "3S", "KS QS JS TS 9S 8S 7S"}, {}, {13, 13, 13, 1});
    CHECK(!DeadEnds(MoveGen(r)).dead(freed));
    CHECK_EQ(solve(r, freed, Limits{}).verdict, Verdict::Solved);
}

TEST(dead_end_bakers_dozen_64_and_477_lost_from_the_deal) {
    // The two impossible deals of PySol 1..1000 (tests/data): told at the first position
    // (the proof of 477 took depth first 58.6 million positions without the check).
    const Rules& r = preset("bakers_dozen");
    for (std::uint64_t n : {64, 477}) {
        check::Context ctx("deal " + std::to_string(n));
        CHECK(DeadEnds(MoveGen(r)).dead(MoveGen(r).start(dealt(r, n)).s));
        const Result res = solve(r, dealt(r, n), Limits{});
        CHECK_EQ(res.verdict, Verdict::Impossible);
        CHECK_EQ(res.stats.expanded, 1u);
    }
}

TEST(dead_end_off_with_free_space_or_sequence_moves) {
    for (const char* game : {"bakers_game", "freecell", "freecell36", "bulochnik"}) {
        check::Context ctx(game);
        CHECK(!DeadEnds(MoveGen(preset(game))).active());
    }
    // The lost Baker's Dozen position above, in FreeCell: a cell takes 3H.
    const Rules& r = preset("freecell");
    const State s = make_state(r, {"4H 2H 3H", "KH QH JH TH 9H 8H 7H 6H 5H"}, {}, {1, 13, 13, 13});
    CHECK(!DeadEnds(MoveGen(r)).dead(s));
    CHECK_EQ(solve(r, s, Limits{}).verdict, Verdict::Solved);
}

}  // namespace
