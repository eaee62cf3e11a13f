// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <vector>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(SetHeaderTest, SetsFromConstantHeaderPropertyAndBody) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setProperty("p", constant("prop"))
        .setHeader("c", constant(7))
        .setHeader("copy", header("SRC"))
        .setHeader("fromProperty", exchangeProperty("p"))
        .setHeader("fromBody", body())
        .to("mock:out");
  });
  auto& mock = h.mock("mock:out");
  mock.expectedHeaderReceived("c", 7);
  mock.expectedHeaderReceived("copy", "s");
  mock.expectedHeaderReceived("fromProperty", "prop");
  mock.expectedHeaderReceived("fromBody", "the body");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "the body", "src", "s"));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(SetHeaderTest, ATemplateMayReadTheHeaderItReplaces) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setHeader("tier", simple("${header.tier}-${header.TIER} and a text past the inline size"))
        .setProperty("p", simple("<${exchangeProperty.p}>"))
        .setProperty("p", simple("<${exchangeProperty.p}>"))
        .to("mock:out");
  });
  for (int i = 0; i < 3; ++i) {  // the second and third reuse the first one's buffers
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "Tier", "gold"));
  }
  for (const auto& ex : h.mock("mock:out").receivedExchanges()) {
    const Headers& headers = ex->message().headers();
    ASSERT_EQ(headers.size(), 1u);
    EXPECT_EQ(headers.begin()->name, "Tier");
    EXPECT_EQ(headers.begin()->value.getString(), "gold-gold and a text past the inline size");
    EXPECT_EQ(ex->getProperty("p")->getString(), "<<>>");
  }
}

// A template of literals and other headers, or a text constant, renders straight into the
// header's own text: what the header held before (longer text, a number) is replaced, not
// appended to.
TEST(SetHeaderTest, ATemplateOfOtherHeadersReplacesWhatTheHeaderHeld) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setHeader("tier", simple("premium-${header.kind}"))
        .setHeader("fixed", constant("standard"))
        .setProperty("seen", simple("${header.kind}/${header.tier}"))
        .to("mock:out");
  });
  Headers long_text{{"kind", "gold"},
                    {"tier", "a text well past a string's inline size"},
                    {"fixed", "another text well past a string's inline size"}};
  Headers number{{"kind", "gold"}, {"tier", 42}, {"fixed", 7}};
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", long_text));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", number));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", Headers{{"kind", "gold"}}));
  const auto& received = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(received.size(), 3u);
  for (const auto& ex : received) {
    EXPECT_EQ(*ex->message().getHeader("tier"), Value("premium-gold"));
    EXPECT_EQ(*ex->message().getHeader("fixed"), Value("standard"));
    EXPECT_EQ(*ex->getProperty("seen"), Value("gold/premium-gold"));
  }
}

// A pooled exchange's header entries keep their last text (Headers::truncate), and a template
// of text parts is copied over it at once: whatever the last text's length, the header holds
// exactly the new text; a part that is not text (absent, a number) renders as before.
TEST(SetHeaderTest, ATemplateOverAReusedHeadersLastTextGivesExactlyTheNewText) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setHeader("tier", simple("premium-${header.kind}!"))
        .setHeader("fixed", constant("std"))
        .to("mock:out");
  });
  const std::vector<Value> kinds = {Value("platinum and a text past the inline size"),
                                    Value("x"),
                                    Value(""),
                                    Value(),
                                    Value(42),
                                    Value("gold"),
                                    Value("a much longer kind than any of the ones before it")};
  for (const Value& kind : kinds) {
    Headers headers{{"fixed", "a longer text than the constant"}};
    if (!kind.isNull()) headers.set("kind", kind);
    ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", headers));
  }
  const auto& received = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(received.size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string kind = kinds[i].isNull() ? "" : kinds[i].toString();
    EXPECT_EQ(*received[i]->message().getHeader("tier"), Value("premium-" + kind + "!")) << i;
    EXPECT_EQ(*received[i]->message().getHeader("fixed"), Value("std")) << i;
  }
}

TEST(SetHeaderTest, ATemplateFailingOnAMessageFailsTheExchangeThere) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").setHeader("amount", simple("amount ${bodyAs(int)}")).to("mock:out");
  });
  auto sent = h.producer.sendBodyAndHeader("direct:in", "abc", "amount", "unchanged");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "Simple expression failed: ${bodyAs(int)}: cannot convert String 'abc' to int");
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
}

TEST(SetHeaderTest, ReplacesAnExistingHeaderWhateverItsCase) {
  RouteHarness h;
  h.start(
      [](RouteBuilder& b) { b.from("direct:in").setHeader("FOO", constant(2)).to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "foo", 1));
  const auto& headers = h.mock("mock:out").receivedExchanges()[0]->message().headers();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers.begin()->name, "foo");
  EXPECT_EQ(headers.begin()->value, Value(2));
}

TEST(SetBodyTest, SetBodyAndTransformReplaceTheBody) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setBody(header("greeting"))
        .transform(expression([](const Exchange& ex) {
          return Value{ex.message().body().as<std::string>() + "!"};
        }))
        .to("mock:out");
  });
  auto& mock = h.mock("mock:out");
  mock.expectedBodiesReceived({"hello!"});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "greeting", "hello"));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(LogStepTest, LogsWithoutChangingTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").log("processing").log(LoggingLevel::Debug, "quiet", "not shown")
        .to("mock:out");
  });
  auto& mock = h.mock("mock:out");
  mock.expectedBodiesReceived({"x"});
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

}  // namespace
}  // namespace dromedary
