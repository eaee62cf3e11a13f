// SPDX-License-Identifier: Apache-2.0
// JsonPath on a document of this test's own: selections, deep scans, slices, filters,
// functions, definite and indefinite results, and the errors of each.
#include "json_path.h"

#include <gtest/gtest.h>

#include <chrono>

#include "json_text.h"

namespace dromedary::component::json {
namespace {

constexpr const char* kShop = R"({
  "shop": {
    "name": "Camel Corner",
    "crates": [
      {"kind": "dates", "origin": "Oman", "kg": 12, "price": 8.5, "tags": ["sweet"]},
      {"kind": "figs", "origin": "Turkey", "kg": 4, "price": 21.0},
      {"kind": "saddles", "origin": "Mali", "kg": 30, "price": 150, "tags": ["leather", "used"]},
      {"kind": "water", "origin": "Oman", "kg": 100, "price": 2, "sealed": true}
    ],
    "van": {"colour": "sand", "price": 9000}
  },
  "open": true
})";

class JsonPathTest : public ::testing::Test {
 protected:
  // The result written as JSON text, or "error: ..." when it fails.
  static std::string eval(std::string_view path) {
    auto doc = readJson(kShop);
    EXPECT_TRUE(doc);
    auto compiled = JsonPath::compile(path);
    if (!compiled) return "compile error: " + compiled.error().message;
    auto v = compiled->evaluate(*doc);
    if (!v) return "error: " + v.error().message;
    std::string out;
    (void)writeJson(*v, out);
    return out;
  }
};

// Filters holding deep scans, nested, visit the document once per node of the level above:
// the work grows as its size to the power of the nesting. Past a bound the evaluation fails
// (the fuzzer found a path of this shape that ran for minutes).
TEST_F(JsonPathTest, NestedDeepScanFiltersGiveUpInsteadOfRunningForEver) {
  auto begin = std::chrono::steady_clock::now();
  std::string result = eval("$..[?($..[?($..[?($..[?($..[?($..kg)])])])])]");
  EXPECT_EQ(result.rfind("error: jsonpath '", 0), 0u) << result;
  EXPECT_NE(result.find("gave up after visiting 20000000 nodes"), std::string::npos) << result;
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(10));
  // One deep scan over a large document is far inside the bound.
  std::string big = "[";
  for (int i = 0; i < 100000; ++i) big += std::string(i ? "," : "") + "{\"kg\": 1}";
  auto doc = readJson(big + "]");
  ASSERT_TRUE(doc);
  auto v = JsonPath::compile("$..kg")->evaluate(*doc);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->getList().size(), 100000u);
}

TEST_F(JsonPathTest, DefinitePathsGiveOneValue) {
  EXPECT_EQ(eval("$.shop.name"), R"("Camel Corner")");
  EXPECT_EQ(eval("$['shop']['van']['colour']"), R"("sand")");
  EXPECT_EQ(eval("$.shop.crates[1].kind"), R"("figs")");
  EXPECT_EQ(eval("$.shop.crates[-1].kind"), R"("water")");
  EXPECT_EQ(eval("$.open"), "true");
  EXPECT_EQ(eval("shop.van.price"), "9000");  // Camel: the $ may be left out
}

TEST_F(JsonPathTest, AMissingPropertyOnADefinitePathIsAnError) {
  EXPECT_EQ(eval("$.shop.truck"), "error: No results for path: $['shop']['truck']");
  EXPECT_EQ(eval("$.shop.crates[9]"), "error: No results for path: $['shop']['crates'][9]");
}

TEST_F(JsonPathTest, WildcardsIndexesAndSlicesGiveLists) {
  EXPECT_EQ(eval("$.shop.crates[*].kind"), R"(["dates","figs","saddles","water"])");
  EXPECT_EQ(eval("$.shop.crates[0,2].kind"), R"(["dates","saddles"])");
  EXPECT_EQ(eval("$.shop.crates[1:3].kind"), R"(["figs","saddles"])");
  EXPECT_EQ(eval("$.shop.crates[:2].kind"), R"(["dates","figs"])");
  EXPECT_EQ(eval("$.shop.crates[-2:].kind"), R"(["saddles","water"])");
  EXPECT_EQ(eval("$.shop.crates[::2].kind"), R"(["dates","saddles"])");
  EXPECT_EQ(eval("$.shop.van.*"), R"(["sand",9000])");
  EXPECT_EQ(eval("$.shop.crates[*].missing"), "[]");
}

TEST_F(JsonPathTest, DeepScansFindEveryMatchInDocumentOrder) {
  EXPECT_EQ(eval("$..price"), R"([8.5,21.0,150,2,9000])");
  EXPECT_EQ(eval("$..crates[0].kind"), R"(["dates"])");
  EXPECT_EQ(eval("$..tags[*]"), R"(["sweet","leather","used"])");
}

TEST_F(JsonPathTest, FiltersCompareCombineAndTestExistence) {
  EXPECT_EQ(eval("$.shop.crates[?(@.price < 10)].kind"), R"(["dates","water"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.origin == 'Oman' && @.kg > 50)].kind"), R"(["water"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.origin == \"Mali\" || @.kind == 'figs')].kind"),
            R"(["figs","saddles"])");
  EXPECT_EQ(eval("$.shop.crates[?(!(@.price >= 10))].kind"), R"(["dates","water"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.sealed)].kind"), R"(["water"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.price == 21)].kind"), R"(["figs"])");  // 21 == 21.0
  EXPECT_EQ(eval("$.shop.crates[?(@.price > $.shop.crates[0].price)].kind"),
            R"(["figs","saddles"])");
}

TEST_F(JsonPathTest, FilterOperatorsForTextAndLists) {
  EXPECT_EQ(eval("$.shop.crates[?(@.kind =~ /.*S/i)].kind"), R"(["dates","figs","saddles"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.origin in ['Mali', 'Turkey'])].kind"), R"(["figs","saddles"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.origin nin ['Oman'])].kind"), R"(["figs","saddles"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.tags size 2)].kind"), R"(["saddles"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.tags anyof ['used'])].kind"), R"(["saddles"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.tags subsetof ['sweet', 'sour'])].kind"), R"(["dates"])");
  EXPECT_EQ(eval("$.shop.crates[?(@.tags empty false)].kind"), R"(["dates","saddles"])");
}

TEST_F(JsonPathTest, FunctionsEndAPath) {
  EXPECT_EQ(eval("$.shop.crates.length()"), "4");
  EXPECT_EQ(eval("$..price.max()"), "9000.0");
  EXPECT_EQ(eval("$..kg.sum()"), "146.0");
  EXPECT_EQ(eval("$.shop.crates[*].kg.avg()"), "36.5");
  EXPECT_EQ(eval("$.shop.van.keys()"), R"(["colour","price"])");
  EXPECT_EQ(eval("$.shop.crates[*].kind.first()"), R"("dates")");
}

TEST_F(JsonPathTest, DefiniteOrNot) {
  EXPECT_TRUE(JsonPath::compile("$.a.b[0]")->definite());
  EXPECT_FALSE(JsonPath::compile("$.a[*]")->definite());
  EXPECT_FALSE(JsonPath::compile("$..a")->definite());
  EXPECT_FALSE(JsonPath::compile("$.a[?(@.b)]")->definite());
}

TEST_F(JsonPathTest, MistakesNameThePosition) {
  EXPECT_EQ(eval("$.shop["), "compile error: jsonpath '$.shop[': expected a number at position 8");
  EXPECT_EQ(eval("$.shop.crates[?(@.kg > )]"),
            "compile error: jsonpath '$.shop.crates[?(@.kg > )]': expected a value: @.path, $.path, "
            "a number, 'text', true, false, null or a [list] at position 24 (')]')");
  EXPECT_EQ(eval("$.a.nope()").substr(0, 60),
            "compile error: jsonpath '$.a.nope()': expected one of the fu");
  EXPECT_NE(eval("$.a[?(@.b =~ /(/)]").find("a valid regular expression"), std::string::npos);
  std::string deep = "$.a[?(" + std::string(100, '(') + "@.b" + std::string(100, ')') + ")]";
  EXPECT_NE(eval(deep).find("filters nested at most 64 deep"), std::string::npos);
}

}  // namespace
}  // namespace dromedary::component::json

namespace dromedary::component::json {
namespace {

TEST(EasyPredicateTest, PathOperatorValueIsAFilterOnThePathsParent) {
  EXPECT_EQ(easyPredicate("store.book.price < 10"), "$.store.book[?(@.price < 10)]");
  EXPECT_EQ(easyPredicate("price < 10"), "$..*[?(@.price < 10)]");
  EXPECT_EQ(easyPredicate("..book.price <= 10"), "$..book[?(@.price <= 10)]");
  EXPECT_EQ(easyPredicate("shop.crates.kind == 'figs'"),
            "$.shop.crates[?(@.kind == 'figs')]");
  EXPECT_EQ(easyPredicate("shop.crates.tags size 2"), "$.shop.crates[?(@.tags size 2)]");
}

TEST(EasyPredicateTest, OtherTextIsLeftAsItIs) {
  EXPECT_EQ(easyPredicate("$.store.book[?(@.price < 10)]"), "$.store.book[?(@.price < 10)]");
  EXPECT_EQ(easyPredicate("store.book"), "store.book");
  EXPECT_EQ(easyPredicate("a < 1 && b > 2"), "a < 1 && b > 2");
  EXPECT_EQ(easyPredicate("a<1"), "a<1");  // operators need spaces around them, as Camel's
}

TEST(EasyPredicateTest, TheRewrittenFiltersRunOnADocument) {
  auto doc = readJson(kShop);
  ASSERT_TRUE(doc);
  auto matches = [&](std::string_view easy) {
    auto path = JsonPath::compile(easyPredicate(easy));
    EXPECT_TRUE(path) << easy;
    auto v = path->evaluate(*doc);
    EXPECT_TRUE(v) << easy;
    return v->isList() ? v->getList().size() : 1u;
  };
  EXPECT_EQ(matches("shop.crates.price < 10"), 2u);
  EXPECT_EQ(matches("shop.crates.origin == 'Oman'"), 2u);
  EXPECT_EQ(matches("price > 1000"), 1u);  // the van, found by the deep scan
  EXPECT_EQ(matches("shop.crates.kg > 500"), 0u);
}

}  // namespace
}  // namespace dromedary::component::json
