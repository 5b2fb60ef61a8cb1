#include "convert.hpp"

namespace bakers::py {

void register_deal(pb::module_& m) {
    m.def(
        "deal",
        [](const pb::dict& rules, std::uint64_t n) {
            const Rules r = rules_from_dict(rules);
            Layout out;
            if (auto why = deal_number(r, n, out); !why.empty()) throw pb::value_error(why);
            return layout_to_python(out);
        },
        pb::arg("rules"), pb::arg("number"),
        "Deals game number `number`: returns (columns, cells, foundation heights) as card codes.");
}

}  // namespace bakers::py
