// Numbered deals: the Microsoft and FreeCell Pro shuffles, PySol's numbering and the
// layouts of every preset, against fc-solve's boards and pysol-cards' deals.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

// Returns the columns of a layout as texts, one per column, covered card first.
std::vector<std::string> column_texts(const Layout& l) {
    std::vector<std::string> out;
    for (const auto& col : l.columns) out.push_back(cards_text(col));
    return out;
}
std::vector<std::string> column_texts(const std::vector<std::vector<Card>>& columns) {
    std::vector<std::string> out;
    for (const auto& col : columns) out.push_back(cards_text(col));
    return out;
}

// Returns the layout of deal n, with a failure recorded if the deal reports an error.
Layout deal(const char* game, std::uint64_t n) {
    Layout l;
    const std::string err = deal_number(preset(game), n, l);
    CHECK_EQ(err, std::string());
    return l;
}

// Checks that deal n of `game` lays out exactly the columns of an fc-solve board text.
void check_board(const char* game, std::uint64_t n, const std::vector<std::string>& board) {
    check::Context ctx(std::string(game) + " deal " + std::to_string(n));
    const Layout l = deal(game, n);
    CHECK_EQ(column_texts(l), column_texts(board_columns(board)));
}

// Checks that a layout holds `count` distinct cards of the deck and nothing in the cells.
void check_distinct(const char* game, const Layout& l, int count) {
    const Rules& r = preset(game);
    CardSet seen = 0;
    int n = 0;
    for (const auto& col : l.columns)
        for (Card c : col) {
            CHECK((r.deck_set() & bit_of(c)) != 0);
            CHECK((seen & bit_of(c)) == 0);
            seen |= bit_of(c);
            ++n;
        }
    CHECK_EQ(n, count);
    CHECK(std::all_of(l.cells.begin(), l.cells.end(), [](Card c) { return c == kNoCard; }));
}

// Returns the board text of line `index` of the bulochnik JSON-lines file: the value of
// "board", whose only escapes are "\n".
std::vector<std::string> bulochnik_board(const std::string& json_line) {
    const std::string tag = "\"board\": \"";
    const auto from = json_line.find(tag);
    if (from == std::string::npos) return {};
    std::vector<std::string> lines(1);
    for (auto i = from + tag.size(); i < json_line.size() && json_line[i] != '"'; ++i) {
        if (json_line[i] == '\\' && i + 1 < json_line.size() && json_line[i + 1] == 'n') {
            lines.emplace_back();
            ++i;
        } else {
            lines.back() += json_line[i];
        }
    }
    return lines;
}

// Returns the cards of a layout in dealing order (round-robin, first columns first).
std::vector<Card> dealing_order(const Layout& l) {
    std::vector<Card> out;
    for (std::size_t row = 0;; ++row) {
        bool any = false;
        for (const auto& col : l.columns)
            if (row < col.size()) {
                out.push_back(col[row]);
                any = true;
            }
        if (!any) return out;
    }
}

}  // namespace

TEST(deal_ms1_first_columns) {
    for (const char* game : {"freecell", "bakers_game"}) {
        check::Context ctx(game);
        const Layout l = deal(game, 1);
        if (!CHECK_EQ(l.columns.size(), 8u)) continue;
        CHECK_EQ(cards_text(l.columns[0]), std::string("JD KD 2S 4C 3S 6D 6S"));
        CHECK_EQ(cards_text(l.columns[1]), std::string("2D KC KS 5C TD 8S 9C"));
    }
}

TEST(deal_ms_boards_match_fcsolve) {
    for (std::uint64_t n : {1, 24, 617, 11982}) {
        const auto board = read_lines(data_path("boards/ms" + std::to_string(n) + ".board"));
        check_board("freecell", n, board);
        check_board("bakers_game", n, board);
    }
}

TEST(deal_freecell_pro_numbers_match_pysol_cards) {
    // pysol-cards 0.24 (LCRandom31) for numbers past Microsoft's 2^31 - 1 and 2^32.
    check_board("freecell", (std::uint64_t{1} << 33) - 1,
                {"TC 8S 8C 6C 5H 5C 9C", "2S TD 6D 8D 9H 9S 6S", "JS TH 3S JD 4H QC 3D",
                 "5S QS KD AH AS JH 4S", "4D 4C 7D JC 2D AD", "6H KH TS 7H QD QH",
                 "3H 2C KC 2H 5D 9D", "7C KS 8H 3C AC 7S"});
    check_board("freecell", (std::uint64_t{1} << 31) + 1,
                {"KD 6H 4S 6C 5S KH 3S", "8S JH QH QD TD TH 9C", "AH QS 7D TS 2D AC 8D",
                 "7S 8C 6S TC 4H KS 3C", "AD 3D 2S JS AS 6D", "9S QC 2C 5C 4C 9H",
                 "JC 5D 3H JD 5H 4D", "7H 9D 2H KC 7C 8H"});
    check_board("freecell", (std::uint64_t{1} << 32) + 5,
                {"AS 5D 6C TD QD 2S 4S", "9C 2C 7H 9H 7D 6D 8S", "2H 9D TH JC AC 2D QC",
                 "KC KH 3S 7S JD 8C JS", "4D 4H KD KS 6S JH", "9S QS QH 8H AD 5H",
                 "3C 3D TC 5C 8D 4C", "3H AH 7C 5S TS 6H"});
}

TEST(deal_freecell_pro_numbers_give_52_distinct_cards) {
    for (std::uint64_t n : {(std::uint64_t{1} << 33) - 1, (std::uint64_t{1} << 31) + 1,
                            std::uint64_t{1} << 31, std::uint64_t{1} << 32, std::uint64_t{32000}}) {
        check::Context ctx("deal " + std::to_string(n));
        const Layout l = deal("freecell", n);
        check_distinct("freecell", l, 52);
        std::vector<std::size_t> sizes;
        for (const auto& col : l.columns) sizes.push_back(col.size());
        CHECK_EQ(sizes, (std::vector<std::size_t>{7, 7, 7, 7, 6, 6, 6, 6}));
    }
}

TEST(deal_bakers_dozen_boards_match_fcsolve) {
    for (std::uint64_t n : {24, 64}) {
        const auto board =
            read_lines(data_path("boards/bakers_dozen_" + std::to_string(n) + ".board"));
        check_board("bakers_dozen", n, board);
    }
}

TEST(deal_bakers_dozen_mersenne_numbers_match_pysol_cards) {
    // pysol-cards 0.24 with PySol FC's Mersenne Twister deals (numbers above 32000).
    check_board("bakers_dozen", 100000,
                {"AC TC 8S JS", "3D JC 7H 4D", "KH 3C 8C 6S", "3H 7S 4C 2H", "KD 9C 5D 5S",
                 "QH AH 2C 4H", "6C QC QS TD", "KC AS 5H 4S", "KS AD 8H TH", "7D 2S JD 6D",
                 "9D 6H TS 9H", "3S JH QD 2D", "8D 7C 9S 5C"});
    check_board("bakers_dozen", 4294967297,
                {"JH TD 9C 5H", "JS 7C 2S 7D", "JD 8H 2H 5S", "TH QD AC JC", "QC 3S QH 5D",
                 "7S 8C 4C 6C", "KS 3C 2C 8D", "TC 4S TS 7H", "AS 6H 4D 4H", "KH 6S 6D 5C",
                 "2D 3D 9H 8S", "9S AD QS AH", "KD KC 9D 3H"});
}

TEST(deal_bakers_dozen_kings_lie_below_every_other_card) {
    for (std::uint64_t n : {1, 2, 3, 24, 64, 1000, 32000, 32001, 123456789}) {
        check::Context ctx("deal " + std::to_string(n));
        const Layout l = deal("bakers_dozen", n);
        check_distinct("bakers_dozen", l, 52);
        for (const auto& col : l.columns) {
            CHECK_EQ(col.size(), 4u);
            const auto first_other = std::find_if(col.begin(), col.end(),
                                                  [](Card c) { return rank_of(c) != kKing; });
            CHECK(std::none_of(first_other, col.end(), [](Card c) { return rank_of(c) == kKing; }));
        }
    }
}

TEST(deal_bulochnik_boards_match_fcsolve) {
    const auto lines = read_lines(data_path("bulochnik_boards_1-1000.jsonl"));
    CHECK_EQ(lines.size(), 1000u);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto board = bulochnik_board(lines[i]);
        if (!CHECK(!board.empty()) || !CHECK_EQ(board[0], std::string("Foundations: H-A C-A D-A S-A")))
            continue;
        check_board("bulochnik", i + 1, board);
        const Layout l = deal("bulochnik", i + 1);
        CHECK_EQ(l.found, (std::array<std::uint8_t, 4>{1, 1, 1, 1}));
        check_distinct("bulochnik", l, 48);
    }
}

TEST(deal_freecell36_drops_ranks_2_to_5_of_the_ms_deal) {
    for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{617}, std::uint64_t{11982}, kMaxMsDeal}) {
        check::Context ctx("deal " + std::to_string(n));
        const Layout l = deal("freecell36", n);
        check_distinct("freecell36", l, 36);
        for (const auto& col : l.columns) {
            CHECK_EQ(col.size(), 6u);
            for (Card c : col) CHECK(rank_of(c) == kAce || rank_of(c) >= 6);
        }
        // The same cards in the same dealing order as the 52-card deal, short ones skipped.
        std::vector<Card> expected;
        for (Card c : dealing_order(deal("freecell", n)))
            if (rank_of(c) == kAce || rank_of(c) >= 6) expected.push_back(c);
        CHECK_EQ(cards_text(dealing_order(l)), cards_text(expected));
    }
}

TEST(deal_every_preset_accounts_for_every_card) {
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        CHECK_EQ(r.validate(), std::string());
        for (std::uint64_t n = 1; n <= 40; ++n) {
            check::Context ctx(std::string(game) + " deal " + std::to_string(n));
            CHECK_EQ(inventory_error(r, state_from_layout(r, deal(game, n))), std::string());
        }
    }
}

TEST(deal_out_of_range_numbers_give_an_error) {
    const std::uint64_t max_ms = (std::uint64_t{1} << 33) - 1;
    for (const char* game : {"bakers_game", "freecell", "freecell36", "bulochnik"})
        for (std::uint64_t n : {std::uint64_t{0}, max_ms + 1, ~std::uint64_t{0}}) {
            check::Context ctx(std::string(game) + " deal " + std::to_string(n));
            Layout l;
            CHECK(!deal_number(preset(game), n, l).empty());
        }
    // PySol numbers run to 2^64 - 1: only 0 is out of range.
    Layout l;
    CHECK(!deal_number(preset("bakers_dozen"), 0, l).empty());
    CHECK_EQ(deal_number(preset("bakers_dozen"), ~std::uint64_t{0}, l), std::string());
    check_distinct("bakers_dozen", l, 52);
}

TEST(deal_tuxedo_last_row_and_penguin_relabelled_from_its_beak) {
    for (std::uint64_t n = 1; n <= 40; ++n) {
        check::Context ctx("deal " + std::to_string(n));
        const Layout t = deal("tuxedo", n);
        std::vector<std::size_t> sizes;
        for (const auto& column : t.columns) sizes.push_back(column.size());
        CHECK_EQ(sizes, (std::vector<std::size_t>{8, 7, 7, 8, 7, 7, 8}));
        // Penguin and Opus: three of the base rank home, the fourth (the beak) at the
        // bottom of the first column; relabelled, the base reads as the ace.
        for (const char* game : {"penguin", "opus"}) {
            const Layout p = deal(game, n);
            int empty_suit = -1, home = 0;
            for (int s = 0; s < kSuits; ++s) {
                home += p.found[s];
                if (p.found[s] == 0) empty_suit = s;
            }
            CHECK_EQ(home, 3);
            if (CHECK(empty_suit >= 0)) CHECK_EQ(p.columns[0].front(), make_card(empty_suit, kAce));
            for (const auto& column : p.columns) CHECK_EQ(column.size(), std::size_t{7});
        }
    }
}
