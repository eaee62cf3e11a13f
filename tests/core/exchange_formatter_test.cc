// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/exchange_formatter.h>

#include <gtest/gtest.h>

namespace dromedary {
namespace {

std::string format(ExchangeFormatOptions options, const Exchange& ex) {
  std::string out;
  ExchangeFormatter(options).format(ex, out);
  return out;
}

TEST(ExchangeFormatterTest, DefaultShapeIsCamels) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody("hello");
  EXPECT_EQ(format({}, *ex), "Exchange[ExchangePattern: InOnly, BodyType: String, Body: hello]");
}

TEST(ExchangeFormatterTest, HeadersAreSortedIgnoringCase) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody(42);
  ex->message().setHeader("b", "two");
  ex->message().setHeader("A", 1);
  ExchangeFormatOptions o;
  o.showHeaders = true;
  EXPECT_EQ(format(o, *ex),
            "Exchange[ExchangePattern: InOnly, Headers: {A=1, b=two}, BodyType: Long, Body: 42]");
}

TEST(ExchangeFormatterTest, NullBodyIsShownAsCamelDoes) {
  ExchangePtr ex = acquireExchange(nullptr);
  EXPECT_EQ(format({}, *ex), "Exchange[ExchangePattern: InOnly, BodyType: null, Body: [Body is null]]");
}

TEST(ExchangeFormatterTest, MultilinePutsEachFieldOnItsOwnLine) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody("hi");
  ExchangeFormatOptions o;
  o.multiline = true;
  EXPECT_EQ(format(o, *ex),
            "Exchange[\n  ExchangePattern: InOnly\n  BodyType: String\n  Body: hi\n]");
}

TEST(ExchangeFormatterTest, BodyLineSeparatorsAreSkippedByDefault) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody("a\nb");
  ExchangeFormatOptions o;
  o.showExchangePattern = false;
  o.showBodyType = false;
  EXPECT_EQ(format(o, *ex), "Exchange[Body: ab]");
}

TEST(ExchangeFormatterTest, MaxCharsCutsLongOutput) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody(std::string(50, 'x'));
  ExchangeFormatOptions o;
  o.showExchangePattern = false;
  o.showBodyType = false;
  o.maxChars = 12;
  EXPECT_EQ(format(o, *ex), "Exchange[Body: xxxx...]");  // Camel cuts before dropping ", "
}

TEST(ExchangeFormatterTest, PlainShowsOnlyTheBody) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody("just this");
  ExchangeFormatOptions o;
  o.plain = true;
  EXPECT_EQ(format(o, *ex), "just this");
}

TEST(ExchangeFormatterTest, ShowsTheFailure) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->message().setBody("x");
  ex->fail(ErrorCode::NoConsumers, "No consumers available on endpoint", "direct://a");
  ExchangeFormatOptions o;
  o.showException = true;
  o.showBodyType = false;
  EXPECT_EQ(format(o, *ex),
            "Exchange[ExchangePattern: InOnly, Body: x, ExceptionType: NoConsumers, "
            "ExceptionMessage: No consumers available on endpoint: direct://a]");
}

}  // namespace
}  // namespace dromedary
