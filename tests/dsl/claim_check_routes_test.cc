// SPDX-License-Identifier: Apache-2.0
// claimCheck: Set/Get/GetAndRemove by key, Push/Pop on a stack, Camel's filter rules (include,
// exclude, remove), a strategy instead of a filter, and the mistakes refused at start.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using Op = ClaimCheckOperation;
using ClaimCheckTest = RouteFileTest;

std::string header(const Exchange& ex, std::string_view name) {
  const Value* v = ex.message().headers().get(name);
  return v ? v->as<std::string>() : "(none)";
}

TEST_F(ClaimCheckTest, SetThenGetAndRemoveBringsTheMessageBack) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .claimCheck(Op::Set, "${header.id}")
        .setBody(constant("replaced"))
        .setHeader("extra", constant("kept"))
        .to("mock:between")
        .claimCheck(Op::GetAndRemove, "${header.id}")
        .to("mock:out")
        .claimCheck(Op::Get, "${header.id}")  // removed: nothing is merged
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "original", "id", "a1"));
  EXPECT_EQ(bodies("mock:between"), std::vector<std::string>{"replaced"});
  EXPECT_EQ(bodies("mock:out"), std::vector<std::string>{"original"});
  EXPECT_EQ(header(*h.mock("mock:out").receivedExchanges()[0], "extra"), "kept")
      << "headers are merged, not replaced";
  EXPECT_EQ(bodies("mock:after"), std::vector<std::string>{"original"});
}

TEST_F(ClaimCheckTest, PushAndPopUseAStack) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .claimCheck(Op::Push)
        .setBody(constant("second"))
        .claimCheck(Op::Push)
        .setBody(constant("third"))
        .claimCheck(Op::Pop)
        .setHeader("first-pop", body())
        .claimCheck(Op::Pop)
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "first"));
  EXPECT_EQ(bodies("mock:out"), std::vector<std::string>{"first"});
  EXPECT_EQ(header(*h.mock("mock:out").receivedExchanges()[0], "first-pop"), "second");
}

TEST_F(ClaimCheckTest, TheFilterSaysWhatComesBack) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .claimCheck(Op::Push)
        .setBody(constant("new"))
        .setHeader("foo", constant("new-foo"))
        .setHeader("bar", constant("new-bar"))
        .setHeader("drop", constant("x"))
        .claimCheck(Op::Pop, "", "header:foo*,--header:drop")
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeaders(
      "direct:in", "old",
      Headers{{"foo", "old-foo"}, {"foobar", "old-foobar"}, {"bar", "old-bar"}}));
  const Exchange& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().as<std::string>(), "new") << "only header:foo* was asked for";
  EXPECT_EQ(header(ex, "foo"), "old-foo");
  EXPECT_EQ(header(ex, "foobar"), "old-foobar");
  EXPECT_EQ(header(ex, "bar"), "new-bar");
  EXPECT_EQ(header(ex, "drop"), "(none)");
}

TEST_F(ClaimCheckTest, AnExcludeOnlyFilterMergesEverythingElse) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .claimCheck(Op::Set, "k")
        .setBody(constant("new"))
        .setHeader("a", constant("new-a"))
        .setHeader("b", constant("new-b"))
        .claimCheck(Op::Get, "k", "-header:b")
        .to("mock:out");
  });
  ASSERT_TRUE(
      h.producer.sendBodyAndHeaders("direct:in", "old", Headers{{"a", "old-a"}, {"b", "old-b"}}));
  const Exchange& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().as<std::string>(), "old");
  EXPECT_EQ(header(ex, "a"), "old-a");
  EXPECT_EQ(header(ex, "b"), "new-b");
}

TEST_F(ClaimCheckTest, YamlAndXmlWithAStrategy) {
  loadYaml(R"~(
- from:
    uri: direct:yaml
    steps:
      - claim-check: {operation: Push}
      - setBody: {constant: "B"}
      - claimCheck:
          operation: Pop
          aggregationStrategy: org.apache.camel.processor.aggregate.GroupedBodyAggregationStrategy
      - to: mock:yaml
)~");
  loadXml(R"~(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <claimCheck operation="Set" key="k"/>
    <setBody><constant>B</constant></setBody>
    <claimCheck operation="GetAndRemove" key="k" filter="body"/>
    <to uri="mock:xml"/>
  </route>
</routes>)~");
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "A"));
  ASSERT_TRUE(h.producer.sendBody("direct:xml", "A"));
  EXPECT_EQ(h.mock("mock:yaml").receivedExchanges().at(0)->message().body().toString(),
            "[\"B\",\"A\"]");
  EXPECT_EQ(bodies("mock:xml"), std::vector<std::string>{"A"});
}

// A fresh context per mistake: each fails its own start.
std::string loadError(const std::string& step) {
  RouteHarness fresh;
  const std::string text = "- from:\n    uri: direct:a\n    steps:\n      - " + step + "\n";
  auto loaded = loadYamlRoutes(fresh.context, text, "routes.yaml");
  if (!loaded) return loaded.error().toString();
  auto started = fresh.context.start();
  return started ? std::string() : started.error().toString();
}

TEST(ClaimCheckErrorsTest, MistakesAreRefusedAtStart) {
  std::string e = loadError("claimCheck: {operation: Get}");
  EXPECT_NE(e.find("claimCheck Get needs a key"), std::string::npos) << e;
  e = loadError("claimCheck: {operation: Pop, filter: \"bodies\"}");
  EXPECT_NE(e.find("claimCheck filter part 'bodies' is not body, headers or header:PATTERN"),
            std::string::npos)
      << e;
  e = loadError("claimCheck: {operation: Fetch, key: k}");
  EXPECT_NE(e.find("Fetch"), std::string::npos) << e;
  e = loadError("claimCheck: {operation: Push, key: k}");
  EXPECT_NE(e.find("claimCheck Push takes no key"), std::string::npos) << e;
}

}  // namespace
}  // namespace dromedary::testing
