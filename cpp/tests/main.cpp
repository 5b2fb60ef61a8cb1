// Runs every registered test (or those whose name contains one of the arguments), prints
// one line per failure (the first 12 of each test, then a count of the rest) and a closing
// "N passed, M failed" (tests counted); exits non-zero on any failure. "-v" also prints
// each test's name and time; "--list" prints the names and runs nothing; "--shard K/N"
// runs the K-th of N shares of the tests (0 <= K < N; test i, in file order, is in share
// i mod N), so that N processes run the whole suite on N cores.
//
// Build and run (tests/test_cpp_core.py does the same):
//   cmake -S . -B build/tests -G Ninja -DBAKERS_TESTS=ON -DBAKERS_SANITIZE=ON
//         -DCMAKE_BUILD_TYPE=Debug
//   cmake --build build/tests && build/tests/bakers_tests

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "check.hpp"

namespace check {
namespace {

// Failures printed per test; a loop that fails on every step would bury the rest.
constexpr int kPrintedPerTest = 12;

const char* g_test = "";
const char* g_file = "";
int g_failures = 0;  // in the running test
int g_passed = 0, g_failed = 0;

// A failed assert in the core aborts the process: say which test it was in, and close
// with the usual summary line (the running test counted as failed) before exiting.
extern "C" void on_abort(int) {
    std::printf("FAIL %s [%s]: aborted (a failed assert or a call to abort)\n%d passed, %d failed\n",
                g_file, g_test, g_passed, g_failed + 1);
    std::fflush(stdout);
    std::_Exit(1);
}

std::vector<std::string>& contexts() {
    static std::vector<std::string> stack;
    return stack;
}

bool selected(const TestCase& t, const std::vector<std::string>& filters) {
    if (filters.empty()) return true;
    const std::string name = t.name;
    return std::any_of(filters.begin(), filters.end(),
                       [&](const std::string& f) { return name.find(f) != std::string::npos; });
}

// Runs one test; returns true if it recorded no failure and threw nothing.
bool run(const TestCase& t, bool verbose) {
    g_test = t.name;
    g_file = t.file;
    g_failures = 0;
    contexts().clear();
    const auto t0 = std::chrono::steady_clock::now();
    try {
        t.fn();
    } catch (const std::exception& e) {
        fail(t.file, 0, std::string("uncaught exception: ") + e.what());
    } catch (...) {
        fail(t.file, 0, "uncaught exception of unknown type");
    }
    if (g_failures > kPrintedPerTest)
        std::printf("FAIL %s: %d more failures not shown\n", t.name, g_failures - kPrintedPerTest);
    if (verbose) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%s %s (%.2f s)\n", g_failures ? "FAILED" : "ok", t.name, s);
    }
    return g_failures == 0;
}

}  // namespace

void fail(const char* file, int line, const std::string& what) {
    if (++g_failures > kPrintedPerTest) return;
    const std::string ctx = Context::current();
    std::printf("FAIL %s:%d [%s]%s%s: %s\n", file, line, g_test, ctx.empty() ? "" : " ",
                ctx.c_str(), what.c_str());
    std::fflush(stdout);
}

Context::Context(std::string text) { contexts().push_back(std::move(text)); }
Context::~Context() { contexts().pop_back(); }
std::string Context::current() {
    std::string out;
    for (const auto& c : contexts()) {
        if (!out.empty()) out += ", ";
        out += c;
    }
    return out;
}

}  // namespace check

int main(int argc, char** argv) {
    bool verbose = false, list = false;
    int share = 0, shares = 1;
    std::vector<std::string> filters;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-v") {
            verbose = true;
        } else if (a == "--list") {
            list = true;
        } else if (a == "--shard") {
            if (i + 1 == argc || std::sscanf(argv[i + 1], "%d/%d", &share, &shares) != 2 || shares < 1 ||
                share < 0 || share >= shares) {
                std::printf("--shard needs K/N with 0 <= K < N (got %s)\n", i + 1 < argc ? argv[i + 1] : "nothing");
                return 2;
            }
            ++i;
        } else {
            filters.push_back(a);
        }
    }
    // Registration order across files is unspecified; run file by file, in file order.
    auto tests = check::registry();
    std::stable_sort(tests.begin(), tests.end(), [](const auto& a, const auto& b) {
        return std::string(a.file) < std::string(b.file);
    });
    std::signal(SIGABRT, check::on_abort);
    int& passed = check::g_passed;
    int& failed = check::g_failed;
    for (std::size_t i = 0; i < tests.size(); ++i) {
        const auto& t = tests[i];
        if (static_cast<int>(i % static_cast<std::size_t>(shares)) != share || !check::selected(t, filters)) continue;
        if (list) {
            std::printf("%s\n", t.name);
            continue;
        }
        (check::run(t, verbose) ? passed : failed) += 1;
    }
    if (list) return 0;
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
