// A minimal test framework: named test functions in a registry, and CHECK / CHECK_EQ,
// which record a failure (file:line, the expression, the values) and let the test go on.
//
//   TEST(deal_ms1) {
//       check::Context ctx("deal " + std::to_string(n));  // printed with each failure
//       CHECK(ok);
//       if (!CHECK_EQ(a, b)) return;  // both macros return whether the check held
//   }
//
// A value is shown as a number when it is a byte, by its operator<< when it has one (found
// by ADL), as a number when it is an enum, as [a, b, ...] when it is a range, else "<?>".
#pragma once

#include <concepts>
#include <cstdint>
#include <ostream>
#include <ranges>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace check {

using TestFn = void (*)();

struct TestCase {
    const char* name;
    const char* file;
    TestFn fn;
};

// Returns the registry of every test, filled before main by TEST's static initialisers.
inline std::vector<TestCase>& registry() {
    static std::vector<TestCase> tests;
    return tests;
}

// Registers a test; returns true so that it can initialise a static.
inline bool add(const char* name, const char* file, TestFn fn) {
    registry().push_back(TestCase{name, file, fn});
    return true;
}

// Records a failure of the running test (defined in main.cpp).
void fail(const char* file, int line, const std::string& what);

// A note printed with every failure recorded while it lives (e.g. "deal 7, step 31").
class Context {
public:
    explicit Context(std::string text);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    // Returns the notes alive now, outermost first, joined by ", ".
    static std::string current();
};

template <class T>
concept Streamable = requires(std::ostream& os, const T& v) { os << v; };

// Returns a readable text of v for failure messages.
template <class T>
std::string show(const T& v) {
    std::ostringstream os;
    if constexpr (std::same_as<T, bool>) {
        os << (v ? "true" : "false");
    } else if constexpr (std::same_as<T, std::string>) {
        os << '"' << v << '"';
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
        os << static_cast<int>(v);  // a byte (a card code, a count) as a number
    } else if constexpr (Streamable<T>) {
        os << v;
    } else if constexpr (std::is_enum_v<T>) {
        os << static_cast<long long>(static_cast<std::underlying_type_t<T>>(v));
    } else if constexpr (std::ranges::input_range<const T>) {
        os << '[';
        bool first = true;
        for (const auto& e : v) {
            os << (first ? "" : ", ") << show(e);
            first = false;
        }
        os << ']';
    } else {
        os << "<?>";
    }
    return os.str();
}

// Returns a == b, comparing integers by value whatever their signedness.
template <class A, class B>
bool equal(const A& a, const B& b) {
    constexpr bool plain_int = std::is_integral_v<A> && std::is_integral_v<B> &&
                               !std::same_as<A, bool> && !std::same_as<B, bool> &&
                               !std::same_as<A, char> && !std::same_as<B, char>;
    if constexpr (plain_int)
        return std::cmp_equal(a, b);
    else
        return a == b;
}

inline bool verify(const char* file, int line, const char* expr, bool ok) {
    if (!ok) fail(file, line, expr);
    return ok;
}

template <class A, class B>
bool verify_eq(const char* file, int line, const char* expr, const A& a, const B& b) {
    const bool ok = equal(a, b);
    if (!ok) fail(file, line, std::string(expr) + ": " + show(a) + " != " + show(b));
    return ok;
}

}  // namespace check

// Variadic so that a comma inside braces or template arguments needs no parentheses; the
// arguments reach a function call, where the language (not the preprocessor) splits them.
#define CHECK(...) \
    ::check::verify(__FILE__, __LINE__, "CHECK(" #__VA_ARGS__ ")", static_cast<bool>(__VA_ARGS__))
#define CHECK_EQ(...) \
    ::check::verify_eq(__FILE__, __LINE__, "CHECK_EQ(" #__VA_ARGS__ ")", __VA_ARGS__)

// Defines a test function and registers it under its name.
#define TEST(name)                                                                  \
    static void name();                                                             \
    [[maybe_unused]] static const bool name##_registered = ::check::add(#name, __FILE__, &name); \
    static void name()
