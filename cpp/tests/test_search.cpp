// The search: verdicts known by construction or by the reference data, every solution
// replayed move by move under a separate reading of the rules, and the limits.

#include <atomic>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "best_first.hpp"
#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

// Returns a complete position (the missing cards home) from columns and cells.
State position(const Rules& r, const std::vector<std::string>& columns,
               const std::vector<std::string>& cells = {}) {
    State s = make_state(r, columns, cells);
    s.found = implied_found(r, s);
    return s;
}

// Checks that a solved result's lines replay: `moves` one card at a time where the game
// moves single cards (supermoves expanded), `compact` with supermoves whole.
void check_solution(const Rules& r, const State& start, const Result& res) {
    CHECK_EQ(replay(r, start, res.moves, false), std::string());
    CHECK_EQ(replay(r, start, res.compact, true), std::string());
    CHECK(res.moves.size() >= res.compact.size());
}

// Solves a position without limits and checks the verdict (and the solution if solved).
Result check_verdict(const Rules& r, const State& start, Verdict expected) {
    const Result res = solve(r, start, Limits{});
    CHECK_EQ(res.verdict, expected);
    CHECK_EQ(res.reason, std::string());
    if (res.verdict == Verdict::Solved) check_solution(r, start, res);
    if (res.verdict != Verdict::Solved) CHECK(res.moves.empty());
    return res;
}

// Returns the verdicts of a reference file of lines "deal<TAB>verdict<TAB>...".
std::map<std::uint64_t, std::string> verdicts(const std::string& file) {
    std::map<std::uint64_t, std::string> out;
    const auto lines = read_lines(data_path(file));
    for (std::size_t i = 1; i < lines.size(); ++i) {  // line 0 is the header
        std::istringstream in(lines[i]);
        std::uint64_t n = 0;
        std::string verdict;
        if (in >> n >> verdict) out[n] = verdict;
    }
    return out;
}

// Checks the solver's verdict on deals against a reference file ("winnable"/"impossible").
void check_reference_deals(const char* game, const std::string& file,
                           const std::vector<std::uint64_t>& deals) {
    const Rules& r = preset(game);
    const auto known = verdicts(file);
    for (std::uint64_t n : deals) {
        check::Context ctx(std::string(game) + " deal " + std::to_string(n));
        const auto it = known.find(n);
        if (!CHECK(it != known.end())) continue;
        if (!CHECK(it->second == "winnable" || it->second == "impossible")) continue;
        check_verdict(r, dealt(r, n), it->second == "winnable" ? Verdict::Solved : Verdict::Impossible);
    }
}

// Baker's Dozen deal 417: undecided after billions of positions (no search has found a
// win or a proof), so no ordering of the search ends it within a limit's reach.
State hard_deal() { return dealt(preset("bakers_dozen"), 417); }

}  // namespace

TEST(search_already_won) {
    const Rules& r = preset("freecell");
    const Result res = check_verdict(r, position(r, {}), Verdict::Solved);
    CHECK(res.moves.empty());
    CHECK(res.compact.empty());
}

TEST(search_won_by_safe_moves_alone) {
    // Every foundation move is safe when building by suit: the root settles to a win.
    const Rules& r = preset("bakers_game");
    const State s = position(r, {"KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"});
    const Result res = check_verdict(r, s, Verdict::Solved);
    CHECK_EQ(res.moves.size(), 13u);
}

TEST(search_one_move_from_a_win) {
    // Only hearts and KS are left. KS must move first (it covers AH) and is not safe to
    // send home while QH is out; once it moves, everything goes home.
    const Rules& r = preset("freecell");
    const State s = position(r, {"KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH KS"});
    CHECK_EQ(s.found, (std::array<std::uint8_t, 4>{0, 13, 13, 12}));
    const Result res = check_verdict(r, s, Verdict::Solved);
    if (CHECK(!res.compact.empty())) CHECK_EQ(res.compact.front().from, 1);
    CHECK(res.stats.expanded <= 2u);
}

TEST(search_freecell_nothing_moves_is_impossible) {
    // Four kings fill the cells; the eight exposed cards are all red (nothing builds on
    // another), none is an ace; the aces lie buried.
    const Rules& r = preset("freecell");
    const State s = position(r,
                             {"AH 2H 3H 4H 5H QH", "6H 7H 8H AC 2C QD", "3C 4C 5C 6C 7C JH",
                              "8C 9C TC JC QC JD", "AD 2D 3D 4D 5D TH", "6D 7D 8D AS 2S TD",
                              "3S 4S 5S 6S 7S 9H", "8S 9S TS JS QS 9D"},
                             {"KH", "KC", "KD", "KS"});
    CHECK_EQ(s.home(), 0);
    CHECK(generated(r, s).empty());
    const Result res = check_verdict(r, s, Verdict::Impossible);
    CHECK_EQ(res.stats.expanded, 1u);
}

TEST(search_bakers_dozen_two_on_its_ace_is_impossible) {
    // 2H covers AH, and no 3 is exposed for it (only hearts are left; KH tops the rest).
    const Rules& r = preset("bakers_dozen");
    const State s = position(r, {"AH 2H", "3H 4H 5H 6H 7H 8H 9H TH JH QH KH"});
    CHECK(generated(r, s).empty());
    check_verdict(r, s, Verdict::Impossible);
}

TEST(search_bakers_game_ms1_and_ms4_are_won) {
    const Rules& r = preset("bakers_game");
    for (std::uint64_t n : {1, 4}) {
        check::Context ctx("deal " + std::to_string(n));
        const Result res = check_verdict(r, dealt(r, n), Verdict::Solved);
        CHECK_EQ(res.stats.most_home, 52);
    }
}

TEST(search_bakers_game_reference_verdicts) {
    // Three impossible (14, 22, 26) and three winnable deals, verdicts from the data file.
    const auto known = verdicts("bakers_game_ms_1-1000.tsv");
    const std::vector<std::uint64_t> deals{3, 14, 15, 22, 26, 33};
    int impossible = 0;
    for (std::uint64_t n : deals) impossible += known.count(n) && known.at(n) == "impossible";
    CHECK_EQ(impossible, 3);
    check_reference_deals("bakers_game", "bakers_game_ms_1-1000.tsv", deals);
}

TEST(search_other_presets_reference_verdicts) {
    check_reference_deals("freecell", "freecell_ms_1-1000.tsv", {1, 2});
    check_reference_deals("bakers_dozen", "bakers_dozen_pysol_1-1000.tsv", {64, 4, 5});
    // The bulochnik file is boards, not verdicts: deal 1 is "winnable" there.
    check_verdict(preset("bulochnik"), dealt(preset("bulochnik"), 1), Verdict::Solved);
    check_verdict(preset("freecell36"), dealt(preset("freecell36"), 1), Verdict::Solved);
}

TEST(search_freecell_ms11982_is_impossible) {
    const Rules& r = preset("freecell");
    check_verdict(r, dealt(r, 11982), Verdict::Impossible);
}

// The lead is one more list: a deal without a win is still searched whole, each position
// expanded once, so its counts are those of best first without the lead.
TEST(search_best_first_lead_keeps_the_proof) {
    const Rules& r = preset("freecell36");
    for (std::uint64_t n : {200218, 200399}) {
        check::Context ctx("deal " + std::to_string(n));
        const State s = dealt(r, n);
        const Result plain = solve_best_first(r, s, Limits{}, nullptr, {}, 1);
        const Result led = solve_best_first(r, s, Limits{}, nullptr, {}, 1, kDepthFirstLead);
        CHECK_EQ(plain.verdict, Verdict::Impossible);
        CHECK_EQ(led.verdict, Verdict::Impossible);
        CHECK(plain.stats.expanded > kDepthFirstLead);  // the lead ran whole, then best first
        CHECK_EQ(led.stats.expanded, plain.stats.expanded);
        CHECK_EQ(led.stats.stored, plain.stats.stored);
    }
}

// Wins found with the lead, within it or after it, replay; a lead longer than the search
// leaves best first nothing to do.
TEST(search_best_first_lead_wins_replay) {
    const Rules& r = preset("freecell36");
    for (std::uint64_t lead : {std::uint64_t{10}, kDepthFirstLead, std::uint64_t{1} << 40}) {
        for (std::uint64_t n : {200041, 200064}) {
            check::Context ctx("deal " + std::to_string(n) + ", lead " + std::to_string(lead));
            const State s = dealt(r, n);
            const Result res = solve_best_first(r, s, Limits{}, nullptr, {}, 1, lead);
            CHECK_EQ(res.verdict, Verdict::Solved);
            check_solution(r, s, res);
        }
    }
}

TEST(search_node_limit) {
    Limits limits;
    limits.max_nodes = 10;
    const Result res = solve(preset("bakers_dozen"), hard_deal(), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK_EQ(res.stats.expanded, 10u);
    CHECK(res.moves.empty());
}

TEST(search_state_limit) {
    // Limits other than the node limit are checked now and then, so the count may pass it.
    Limits limits;
    limits.max_states = 50;
    const Result res = solve(preset("bakers_dozen"), hard_deal(), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("state limit"));
    CHECK(res.stats.stored >= 50u);
}

TEST(search_memory_limit) {
    // The visited table alone holds more than one byte from the start.
    Limits limits;
    limits.max_bytes = 1;
    const Result res = solve(preset("bakers_game"), dealt(preset("bakers_game"), 1), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("memory limit"));
}

TEST(search_time_limit) {
    Limits limits;
    limits.max_seconds = 0.05;
    limits.max_nodes = 5'000'000;  // a bound if the clock were never read
    const Result res = solve(preset("bakers_dozen"), hard_deal(), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("time limit"));
    CHECK(res.stats.seconds < 5);
}

TEST(search_stop_flag_set_before_the_start) {
    // Bakers' Game MS 1 is won in a few hundred expansions: the flag must end it first.
    const std::atomic<bool> stop{true};
    const Result res = solve(preset("bakers_game"), dealt(preset("bakers_game"), 1), Limits{}, &stop);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK(res.stats.expanded <= 1u);
    CHECK(res.moves.empty());
}

TEST(search_stop_poll) {
    Limits limits;
    limits.max_seconds = 20;  // a bound if the poll were never called
    int calls = 0;
    const Result res = solve(preset("bakers_dozen"), hard_deal(), limits, nullptr, [&](const Progress&) {
        ++calls;
        return true;
    });
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK_EQ(calls, 1);
}

TEST(search_on_several_threads_agrees) {
    // The shared visited set and open list must not change a verdict, and a line found
    // by any thread must replay.
    const Rules& r = preset("bakers_game");
    for (int threads : {2, 4})
        for (std::uint64_t n : {1, 14, 22}) {
            check::Context ctx(std::to_string(threads) + " threads, deal " + std::to_string(n));
            const State start = dealt(r, n);
            const Result res = solve(r, start, Limits{}, nullptr, {}, threads);
            CHECK_EQ(res.verdict, n == 1 ? Verdict::Solved : Verdict::Impossible);
            if (res.verdict == Verdict::Solved) check_solution(r, start, res);
        }
}

TEST(search_opus_38_is_won_only_round_the_corner) {
    // PySolFC's Opus deal 38 (base 2, dealt relabelled): won with the wrap; without it
    // (the same cards, a king no longer on an ace) no win exists.
    const Rules& r = preset("opus");
    const State start = dealt(r, 38);
    check_verdict(r, start, Verdict::Solved);
    Rules plain = r;
    plain.wrap = false;
    plain.base_from_deal = false;
    CHECK_EQ(plain.validate(), std::string());
    check_verdict(plain, start, Verdict::Impossible);
}
