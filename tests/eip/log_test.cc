// SPDX-License-Identifier: Apache-2.0
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

std::mutex lines_mutex;
std::vector<std::string> lines;

void collect(std::string_view category, LoggingLevel level, std::string_view line) noexcept {
  std::lock_guard lock(lines_mutex);
  lines.push_back(fmt::format("{} {} {}", loggingLevelName(level), category, line));
}

class LogTest : public ::testing::Test {
 protected:
  LogTest() {
    lines.clear();
    setLogObserver(collect);
  }
  ~LogTest() override { setLogObserver(nullptr); }
};

TEST_F(LogTest, MessageIsASimpleTemplate) {
  RouteHarness h;
  setLogLevel(LoggingLevel::Info);
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("orders").log("Got ${body} from ${header.from}");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value("order-1"), "from", Value("shop")));
  setLogLevel(LoggingLevel::Warn);
  EXPECT_THAT(lines, ::testing::Contains("INFO orders Got order-1 from shop"));
}

TEST_F(LogTest, LogNameAndLevelAreUsed) {
  RouteHarness h;
  setLogLevel(LoggingLevel::Debug);
  h.start([](RouteBuilder& b) {
    b.from("direct:in").log(LoggingLevel::Debug, "audit", "${header.n > 1 ? 'many' : 'one'}");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value("x"), "n", Value(2)));
  setLogLevel(LoggingLevel::Warn);
  EXPECT_THAT(lines, ::testing::Contains("DEBUG audit many"));
}

TEST_F(LogTest, DisabledLevelEvaluatesNothing) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    // Evaluating this would fail the exchange: the body is not a number.
    b.from("direct:in").log(LoggingLevel::Debug, "quiet", "${bodyAs(Integer)}").to("mock:out");
  });
  h.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value("abc")));
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied());
  for (const std::string& line : lines) EXPECT_EQ(line.find("quiet"), std::string::npos) << line;
}

TEST_F(LogTest, ATemplateFailingOnAMessageFailsTheExchangeAndLogsNothing) {
  RouteHarness h;
  setLogLevel(LoggingLevel::Info);
  h.start([](RouteBuilder& b) {
    b.from("direct:in").log("amount ${bodyAs(int)} received").to("mock:out");
  });
  auto sent = h.producer.sendBody("direct:in", Value("abc"));
  setLogLevel(LoggingLevel::Warn);
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "Simple expression failed: ${bodyAs(int)}: cannot convert String 'abc' to int");
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  for (const std::string& line : lines) {
    EXPECT_FALSE(line.starts_with("INFO route1")) << "a half-built line was logged: " << line;
  }
}

TEST_F(LogTest, BadTemplateFailsAtRouteStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").log("Got ${bodyy}");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("unknown function 'bodyy' at column 7"),
            std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary::testing
