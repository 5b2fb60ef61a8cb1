#include "deal.hpp"

#include <algorithm>
#include <bit>

namespace bakers {
namespace {

// Suit indices (H C D S) of PySol's C, S, H, D and of the Microsoft order C, D, H, S.
constexpr int kPysolSuits[4] = {1, 3, 0, 2};
constexpr int kMsSuits[4] = {1, 2, 0, 3};

// The Microsoft / FreeCell Pro linear congruential generator, as PySol's LCRandom31.
class MsRandom {
public:
    explicit MsRandom(std::uint64_t seed)
        : seed_(seed), x_(seed < (std::uint64_t{1} << 32) ? seed : seed - (std::uint64_t{1} << 32)) {}
    // Returns the next number, 15 bits (16 with FreeCell Pro's extensions).
    std::uint32_t next() {
        x_ = (x_ * 214013 + 2531011) & kMaxMsDeal;
        if (seed_ < (std::uint64_t{1} << 32)) {
            std::uint32_t r = (x_ >> 16) & 0x7fff;
            return seed_ < (std::uint64_t{1} << 31) ? r : (r | 0x8000);
        }
        return static_cast<std::uint32_t>((x_ >> 16) & 0xffff) + 1;
    }

private:
    std::uint64_t seed_, x_;
};

// MT19937 seeded as CPython's random.Random(n), giving CPython's random().
class PythonRandom {
public:
    explicit PythonRandom(std::uint64_t n) {
        std::uint32_t key[2] = {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(n >> 32)};
        init_by_array(key, key[1] ? 2 : 1);
    }
    // Returns a double in [0, 1) with 53 random bits, as CPython does.
    double random() {
        std::uint32_t a = next() >> 5, b = next() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

private:
    static constexpr int N = 624, M = 397;
    std::uint32_t mt_[N];
    int i_ = N + 1;

    void init_genrand(std::uint32_t s) {
        mt_[0] = s;
        for (i_ = 1; i_ < N; ++i_)
            mt_[i_] = 1812433253U * (mt_[i_ - 1] ^ (mt_[i_ - 1] >> 30)) + static_cast<std::uint32_t>(i_);
    }
    void init_by_array(const std::uint32_t* key, int len) {
        init_genrand(19650218U);
        int i = 1, j = 0;
        for (int k = std::max(N, len); k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] +
                     static_cast<std::uint32_t>(j);
            if (++i >= N) { mt_[0] = mt_[N - 1]; i = 1; }
            if (++j >= len) j = 0;
        }
        for (int k = N - 1; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) -
                     static_cast<std::uint32_t>(i);
            if (++i >= N) { mt_[0] = mt_[N - 1]; i = 1; }
        }
        mt_[0] = 0x80000000U;
    }
    std::uint32_t next() {
        if (i_ >= N) {
            for (int k = 0; k < N; ++k) {
                std::uint32_t y = (mt_[k] & 0x80000000U) | (mt_[(k + 1) % N] & 0x7fffffffU);
                mt_[k] = mt_[(k + M) % N] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
            }
            i_ = 0;
        }
        std::uint32_t y = mt_[i_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }
};

}  // namespace

std::vector<Card> ms_shuffle(std::uint64_t n) {
    std::vector<Card> a;
    a.reserve(52);
    for (int r = kAce; r <= kKing; ++r)
        for (int s : kMsSuits) a.push_back(make_card(s, r));
    MsRandom rng(n);
    for (int i = 51; i > 0; --i) std::swap(a[i], a[rng.next() % static_cast<std::uint32_t>(i + 1)]);
    return a;
}

std::vector<Card> pysol_mt_shuffle(std::uint64_t n) {
    std::vector<Card> a;
    a.reserve(52);
    for (int s : kPysolSuits)
        for (int r = kAce; r <= kKing; ++r) a.push_back(make_card(s, r));
    PythonRandom rng(n);
    for (int i = 51; i > 0; --i) std::swap(a[i], a[static_cast<int>(rng.random() * (i + 1))]);
    return a;
}

Layout lay_out(const Rules& rules, const std::vector<Card>& dealing_order) {
    Layout out;
    out.columns.assign(rules.columns, {});
    for (auto& column : out.columns) column.reserve(dealing_order.size() / rules.columns + 2);
    out.cells.assign(rules.cells, kNoCard);
    std::vector<Card> order;
    order.reserve(dealing_order.size());
    for (Card c : dealing_order) {
        if (!rules.has_rank(rank_of(c))) continue;
        if (rules.aces_on_foundations && rank_of(c) == kAce) {
            out.found[suit_of(c)] = 1;
            continue;
        }
        order.push_back(c);
    }
    int base = kAce;
    if (rules.base_from_deal && !order.empty()) {
        // The cards of the first card's rank come first, in dealing order; the first three
        // go home, the fourth is the first card dealt to the columns.
        base = rank_of(order.front());
        std::stable_partition(order.begin(), order.end(),
                              [base](Card c) { return rank_of(c) == base; });
        for (int i = 0; i < 3; ++i) out.found[suit_of(order[i])] = 1;
        order.erase(order.begin(), order.begin() + 3);
    }
    const int n = rules.columns;
    if (rules.kings_to_bottom) {
        for (int i = 0; i < static_cast<int>(order.size()); ++i) {
            if (rank_of(order[i]) != kKing) continue;
            for (int j = i % n; j < i; j += n)
                if (rank_of(order[j]) != kKing) {
                    std::swap(order[i], order[j]);
                    break;
                }
        }
    }
    for (int left = rules.home_aces, i = static_cast<int>(order.size()) - 1; left > 0 && i >= 0;
         --i) {
        if (rank_of(order[i]) != kAce) continue;
        out.found[suit_of(order[i])] = 1;
        order.erase(order.begin() + i);
        --left;
    }
    // The last cards go to the dealt cells, lowest cell first; before them, the last row's
    // cards to its columns, lowest column first; the others round-robin to the columns.
    std::size_t to_columns = order.size() - static_cast<std::size_t>(rules.cells_dealt());
    const std::size_t to_rows = to_columns - static_cast<std::size_t>(std::popcount(rules.last_row));
    for (std::size_t i = 0, k = 0, col = 0; i < order.size(); ++i) {
        if (i >= to_rows && i < to_columns) {
            while (!((rules.last_row >> col) & 1U)) ++col;
            out.columns[col++].push_back(order[i]);
            continue;
        }
        if (i < to_columns) {
            const Card c = order[i];
            const int s = suit_of(c);
            if (rules.deal_to_foundations &&
                rules.height_of_rank(rank_of(c)) == out.found[s] + 1) {
                ++out.found[s];
                continue;
            }
            out.columns[i % n].push_back(c);
            continue;
        }
        while (!((rules.dealt_cells >> k) & 1U)) ++k;
        out.cells[k++] = order[i];
    }
    if (base != kAce) relabel(out, base);
    return out;
}

void relabel(Layout& layout, int base) {
    const auto shift = [base](Card c) {
        return c == kNoCard ? c : make_card(suit_of(c), (rank_of(c) - base + kKing) % kKing + 1);
    };
    for (auto& column : layout.columns)
        for (Card& c : column) c = shift(c);
    for (Card& c : layout.cells) c = shift(c);
}

std::string number_error(const Rules& rules, std::uint64_t n) {
    const bool mt = rules.numbering == Numbering::PySol && n > 32000;
    if (n >= 1 && (mt || n <= kMaxMsDeal)) return {};
    return "deal number " + std::to_string(n) + " is out of range 1.." +
           (rules.numbering == Numbering::PySol ? std::string("18446744073709551615")
                                                : std::to_string(kMaxMsDeal));
}

std::string deal_number(const Rules& rules, std::uint64_t n, Layout& out) {
    if (auto why = number_error(rules, n); !why.empty()) return why;
    const bool mt = rules.numbering == Numbering::PySol && n > 32000;
    std::vector<Card> a = mt ? pysol_mt_shuffle(n) : ms_shuffle(n);
    if (!rules.kings_to_bottom) std::reverse(a.begin(), a.end());
    out = lay_out(rules, a);
    return {};
}

}  // namespace bakers
