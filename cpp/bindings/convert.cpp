#include "convert.hpp"

#include <stdexcept>
#include <type_traits>

namespace bakers::py {
namespace {

// Returns d[key] as a T; a value of another type is a ValueError naming the rule.
template <typename T>
T cast_rule(const pb::dict& d, const char* key, const char* type) {
    pb::object value = d[key];
    const bool is_bool = pb::isinstance<pb::bool_>(value);
    if constexpr (std::is_same_v<T, bool>) {
        if (is_bool) return value.cast<bool>();
    } else if constexpr (std::is_same_v<T, int>) {
        if (!is_bool && pb::isinstance<pb::int_>(value)) return value.cast<int>();
    } else {
        if (pb::isinstance<pb::str>(value)) return value.cast<std::string>();
    }
    throw pb::value_error(std::string("rule ") + key + "=" + pb::repr(value).cast<std::string>() +
                          " must be " + type);
}

template <typename E>
E pick(const pb::dict& d, const char* key, std::initializer_list<std::pair<const char*, E>> names,
       E fallback) {
    if (!d.contains(key)) return fallback;
    const auto text = cast_rule<std::string>(d, key, "a string");
    for (const auto& [n, e] : names)
        if (text == n) return e;
    throw pb::value_error(std::string("rule ") + key + "=" + text + " is not known");
}

template <typename T>
T get(const pb::dict& d, const char* key, T fallback) {
    if (!d.contains(key)) return fallback;
    return cast_rule<T>(d, key, std::is_same_v<T, bool> ? "a bool" : "an int");
}

// Returns the rule `key` of d, a list of places 0..count-1 (cells or columns, `what`), as a
// bit mask (0 when absent); throws ValueError naming the rule otherwise.
unsigned places(const pb::dict& d, const char* key, int count, const char* what) {
    unsigned mask = 0;
    if (!d.contains(key)) return mask;
    for (pb::handle place : pb::iterable(d[key])) {
        const bool is_int = pb::isinstance<pb::int_>(place) && !pb::isinstance<pb::bool_>(place);
        const int k = is_int ? place.cast<int>() : -1;
        if (k < 0 || k >= count)
            throw pb::value_error(std::string("rule ") + key + "=" + pb::repr(d[key]).cast<std::string>() +
                                  " must list " + what + " 0.." + std::to_string(count - 1));
        mask |= 1U << k;
    }
    return mask;
}

}  // namespace

Rules rules_from_dict(const pb::dict& d) {
    Rules r;
    r.deck = get<int>(d, "deck", 52);
    r.columns = get<int>(d, "columns", 8);
    r.cells = get<int>(d, "cells", 4);
    r.build = pick<Build>(d, "build", {{"suit", Build::Suit}, {"alternate", Build::Alternate},
                                       {"any", Build::Any}}, Build::Suit);
    r.empty = pick<Empty>(d, "empty", {{"any", Empty::Any}, {"kings", Empty::Kings},
                                       {"none", Empty::None}}, Empty::Any);
    r.moves = pick<Moves>(d, "moves", {{"single", Moves::Single}, {"supermove", Moves::Supermove},
                                       {"sequence", Moves::Sequence}}, Moves::Supermove);
    r.auto_aces = get<bool>(d, "auto_aces", false);
    r.aces_on_foundations = get<bool>(d, "aces_on_foundations", false);
    r.kings_to_bottom = get<bool>(d, "kings_to_bottom", false);
    r.deal_to_foundations = get<bool>(d, "deal_to_foundations", false);
    r.home_aces = get<int>(d, "home_aces", 0);
    r.wrap = get<bool>(d, "wrap", false);
    r.base_from_deal = get<bool>(d, "base_from_deal", false);
    r.numbering = pick<Numbering>(d, "numbering", {{"ms", Numbering::MS}, {"pysol", Numbering::PySol}},
                                  Numbering::MS);
    r.dealt_cells = static_cast<std::uint8_t>(places(d, "dealt_cells", kMaxCells, "cells"));
    r.last_row = static_cast<std::uint16_t>(places(d, "last_row", kMaxColumns, "columns"));
    if (auto why = r.validate(); !why.empty()) throw pb::value_error(why);
    return r;
}

Layout layout_from_python(const Rules& rules, const std::vector<std::vector<int>>& columns,
                          const std::vector<int>& cells, const std::vector<int>& found) {
    if (static_cast<int>(columns.size()) != rules.columns)
        throw pb::value_error("expected " + std::to_string(rules.columns) + " columns, got " +
                              std::to_string(columns.size()));
    if (static_cast<int>(cells.size()) != rules.cells)
        throw pb::value_error("expected " + std::to_string(rules.cells) + " cells, got " +
                              std::to_string(cells.size()));
    if (found.size() != kSuits) throw pb::value_error("expected 4 foundation heights");
    Layout out;
    CardSet seen = 0;
    auto card = [&](int code) {
        if (code <= 0 || code >= 64 || rank_of(static_cast<Card>(code)) < kAce ||
            rank_of(static_cast<Card>(code)) > kKing || !rules.has_rank(rank_of(static_cast<Card>(code))))
            throw pb::value_error("card code " + std::to_string(code) + " is not a card of the deck");
        const auto c = static_cast<Card>(code);
        if (seen & bit_of(c)) throw pb::value_error("card " + card_text(c) + " appears twice");
        seen |= bit_of(c);
        return c;
    };
    for (const auto& col : columns) {
        out.columns.emplace_back();
        for (int code : col) out.columns.back().push_back(card(code));
    }
    for (int code : cells) out.cells.push_back(code == 0 ? kNoCard : card(code));
    for (int s = 0; s < kSuits; ++s) {
        if (found[s] < 0 || found[s] > rules.suit_size())
            throw pb::value_error("foundation height " + std::to_string(found[s]) + " is out of range");
        out.found[s] = static_cast<std::uint8_t>(found[s]);
        for (int h = 1; h <= found[s]; ++h) {
            const Card c = make_card(s, rules.rank_at_height(h));
            if (seen & bit_of(c)) throw pb::value_error("card " + card_text(c) + " is both home and in play");
            seen |= bit_of(c);
        }
    }
    if (seen != rules.deck_set()) throw pb::value_error("the position does not hold every card of the deck once");
    return out;
}

pb::tuple layout_to_python(const Layout& layout) {
    std::vector<std::vector<int>> cols;
    for (const auto& c : layout.columns) cols.emplace_back(c.begin(), c.end());
    std::vector<int> cells(layout.cells.begin(), layout.cells.end());
    std::vector<int> found(layout.found.begin(), layout.found.end());
    return pb::make_tuple(cols, cells, found);
}

pb::list moves_to_python(const std::vector<Move>& line) {
    const auto place = [](std::uint8_t p) {
        return is_column(p) ? std::pair{0, static_cast<int>(p)}
               : is_cell(p) ? std::pair{1, p - kCell}
                            : std::pair{2, 0};
    };
    pb::list moves;
    for (const Move& m : line) {
        auto [fk, fi] = place(m.from);
        auto [tk, ti] = place(m.to);
        moves.append(pb::make_tuple(fk, fi, tk, ti, static_cast<int>(m.count)));
    }
    return moves;
}


}  // namespace bakers::py
