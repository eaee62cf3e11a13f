// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>

#include "alloc_counter.h"
#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

ValueList items(std::initializer_list<Value> values) { return ValueList(values); }

std::vector<std::string> bodies(component::mock::MockEndpoint& mock) {
  std::vector<std::string> out;
  for (const auto& ex : mock.receivedExchanges()) out.push_back(ex->message().body().as<std::string>());
  return out;
}

TEST(SplitTest, RunsItsStepsOncePerListItem) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").split(body()).to("mock:item").end(); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b", "c"}))));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SplitTest, SetsIndexSizeAndCompleteProperties) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").split(body()).to("mock:item").end(); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b", "c"}))));
  auto got = h.mock("mock:item").receivedExchanges();
  ASSERT_EQ(got.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(*got[i]->getProperty("CamelSplitIndex"), Value(i));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitSize"), Value(3));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitComplete"), Value(i == 2));
  }
}

TEST(SplitTest, ContinuesWithTheOriginalMessageByDefault) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(body()).setBody(constant("changed")).end().to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(items({"a", "b"})), "h", 1));
  auto got = h.mock("mock:after").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value(items({"a", "b"})));
  EXPECT_EQ(*got[0]->message().getHeader("h"), Value(1));
}

TEST(SplitTest, ItemsSeeTheInputHeadersButNotEachOthersChanges) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .split(body())
        .to("mock:item")
        .setHeader("seen", simple("${body}"))
        .end();
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(items({"a", "b"})), "from", "x"));
  for (const auto& ex : h.mock("mock:item").receivedExchanges()) {
    EXPECT_EQ(*ex->message().getHeader("from"), Value("x"));
    EXPECT_EQ(ex->message().getHeader("seen"), nullptr);
  }
}

TEST(SplitTest, AnItemsPropertyChangesDoNotReachTheNextItem) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setProperty("kept", constant("input"))
        .split(body())
        .to("mock:item")
        .setProperty("kept", simple("changed by ${body}"))
        .removeProperty("CamelSplitSize")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b", "c"}))));
  auto got = h.mock("mock:item").receivedExchanges();
  ASSERT_EQ(got.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(*got[i]->getProperty("kept"), Value("input"));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitIndex"), Value(i));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitSize"), Value(3));
  }
}

TEST(SplitTest, ItemsThatChangeNothingEachGetTheirOwnProperties) {
  // The sub-exchange's copy is reused from item to item: only the split's properties move.
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(body()).process([](Exchange&) {}).end();
    b.from("direct:stream").split(tokenize(",")).streaming().to("mock:streamed").end();
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(items({"a", "b"})), "h", 1));
  ASSERT_TRUE(h.producer.sendBody("direct:stream", "a,b,c,d"));
  auto got = h.mock("mock:streamed").receivedExchanges();
  ASSERT_EQ(got.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i]->message().body(), Value(std::string(1, static_cast<char>('a' + i))));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitIndex"), Value(i));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitComplete"), Value(i == 3));
    EXPECT_EQ(got[i]->getProperty("CamelSplitSize") != nullptr, i == 3);
  }
}

TEST(SplitTest, ASplitAfterAMulticastSetsItsOwnPropertiesBesideTheInputs) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .multicast().to("mock:branch").to("mock:branch").end()
        .split(body()).to("mock:item").end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b"}))));
  // A split first, so the next exchange's multicast and split reuse what it left.
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"c", "d"}))));
  auto got = h.mock("mock:item").receivedExchanges();
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < got.size(); ++i) {
    // The multicast's result (its last branch) left its properties on the input, as Camel's.
    EXPECT_EQ(*got[i]->getProperty("CamelMulticastIndex"), Value(1));
    EXPECT_EQ(*got[i]->getProperty("CamelMulticastComplete"), Value(true));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitIndex"), Value(static_cast<int>(i % 2)));
    EXPECT_EQ(*got[i]->getProperty("CamelSplitComplete"), Value(i % 2 == 1));
  }
}

TEST(SplitTest, ASplitAfterAMulticastKeepingTheOriginalGetsNoneOfTheBranchProperties) {
  // The multicast's sub-exchange is the one the split reuses: its copy must not carry over.
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .multicast(AggregationStrategies::useOriginal()).to("mock:branch").end()
        .split(body()).to("mock:item").end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b"}))));
  auto got = h.mock("mock:item").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  for (const auto& ex : got) EXPECT_EQ(ex->getProperty("CamelMulticastIndex"), nullptr);
}

TEST(SplitTest, SplitsAPlainTextOnCommas) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").split(body()).to("mock:item").end(); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a,b,,c"));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "b", "", "c"}));
}

TEST(SplitTest, SplitsAMapIntoItsEntries) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").split(body()).to("mock:item").end(); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(ValueMap{{"a", 1}, {"b", 2}})));
  auto got = h.mock("mock:item").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1]->message().body(), Value(ValueMap{{"b", 2}}));
}

TEST(SplitTest, NullOrEmptyGivesNoItems) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(header("none")).to("mock:item").end().to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:item").receivedCount(), 0u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(SplitTest, TokenizesLinesWithoutATrailingEmptyOne) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").split(tokenize("\n")).to("mock:item").end(); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "one\ntwo\nthree\n"));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_EQ(*h.mock("mock:item").receivedExchanges()[0]->getProperty("CamelSplitSize"), Value(3));
}

TEST(SplitTest, TokenizesWithARegex) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(tokenize("\\s*;\\s*", true)).to("mock:item").end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a ;b;  c"));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SplitTest, GroupsTokensAndSkipsTheFirst) {
  RouteHarness h;
  Tokenizer t = tokenize("\n", false, 2);
  t.skipFirst = true;
  h.start([&](RouteBuilder& b) { b.from("direct:in").split(t).to("mock:item").end(); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "header\n1\n2\n3\n4\n5"));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"1\n2", "3\n4", "5"}));
  EXPECT_EQ(*h.mock("mock:item").receivedExchanges()[0]->getProperty("CamelSplitSize"), Value(3));
}

TEST(SplitTest, StreamingKnowsTheSizeOnlyOnTheLastItem) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(tokenize(",")).streaming().to("mock:item").end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a,b,c"));
  auto got = h.mock("mock:item").receivedExchanges();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0]->getProperty("CamelSplitSize"), nullptr);
  EXPECT_EQ(*got[2]->getProperty("CamelSplitSize"), Value(3));
  EXPECT_EQ(*got[2]->getProperty("CamelSplitComplete"), Value(true));
}

TEST(SplitTest, StreamsAMillionLinesInBoundedMemory) {
  RouteHarness h;
  std::atomic<int64_t> count{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").split(tokenize("\n")).streaming().process([&](Exchange& ex) {
      if (ex.message().body().isString()) ++count;
    }).end();
  });
  std::string text;
  for (int i = 0; i < 1'000'000; ++i) text += "line " + std::to_string(i) + "\n";
  ASSERT_TRUE(h.producer.sendBody("direct:in", "warm\nup"));
  Value body(std::move(text));
  count = 0;
  testing::AllocationScope scope;
  ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  EXPECT_EQ(count.load(), 1'000'000);
  // Nothing per line: the text is scanned in place, one sub-exchange reused.
  EXPECT_LT(scope.allocations(), 50u);
}

TEST(SplitTest, AggregatesWithAStrategy) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .split(body(), AggregationStrategies::groupedBody())
        .setBody(simple("${body}!"))
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b"}))));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(),
            Value(items({"a!", "b!"})));
}

TEST(SplitTest, AggregatesWithALambdaInItemOrder) {
  RouteHarness h;
  auto sum = aggregationStrategy([](Exchange* old, Exchange& ex) -> Exchange* {
    if (!old) return &ex;
    old->message().setBody(old->message().body().as<int64_t>() + ex.message().body().as<int64_t>());
    return old;
  });
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").split(body(), sum).to("mock:item").end().to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({1, 2, 3, 4}))));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(), Value(10));
}

TEST(SplitTest, StringStrategyJoinsBodies) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .split(tokenize(","), AggregationStrategies::string("+"))
        .setBody(simple("<${body}>"))
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a,b,c"));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(), Value("<a>+<b>+<c>"));
}

TEST(SplitTest, GroupedExchangeKeepsEachSubExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .split(body(), AggregationStrategies::groupedExchange())
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b"}))));
  const auto* group =
      h.mock("mock:after").receivedExchanges()[0]->message().body().getIf<GroupedExchanges>();
  ASSERT_NE(group, nullptr);
  ASSERT_EQ(group->exchanges.size(), 2u);
  EXPECT_EQ(group->exchanges[1]->message().body(), Value("b"));
}

TEST(SplitTest, AFailedItemFailsTheExchangeAfterTheOthersRan) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .split(body())
        .process([](Exchange& ex) {
          if (ex.message().body() == Value("bad")) throw std::runtime_error("bad item");
        })
        .to("mock:item")
        .end()
        .to("mock:after");
  });
  auto sent = h.producer.sendBody("direct:in", Value(items({"a", "bad", "c"})));
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("bad item"), std::string::npos);
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
}

TEST(SplitTest, StopOnExceptionStopsAtTheFirstFailure) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .split(body())
        .stopOnException()
        .process([](Exchange& ex) {
          if (ex.message().body() == Value("bad")) throw std::runtime_error("bad item");
        })
        .to("mock:item")
        .end();
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", Value(items({"a", "bad", "c"}))));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a"}));
}

TEST(SplitTest, TheRoutesErrorHandlerRedeliversTheFailingItemOnly) {
  RouteHarness h;
  std::atomic<int> attempts{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(
            std::chrono::milliseconds(0)))
        .split(body())
        .process([&](Exchange& ex) {
          if (ex.message().body() == Value("flaky") && ++attempts < 3) {
            throw std::runtime_error("not yet");
          }
        })
        .to("mock:item")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "flaky", "c"}))));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "flaky", "c"}));
  EXPECT_EQ(attempts.load(), 3);
}

TEST(SplitTest, ADeadLetterChannelTakesTheFailedItemAndTheSplitGoesOn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(deadLetterChannel("mock:dead"))
        .split(body())
        .process([](Exchange& ex) {
          if (ex.message().body() == Value("bad")) throw std::runtime_error("bad item");
        })
        .to("mock:item")
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "bad", "c"}))));
  EXPECT_EQ(bodies(h.mock("mock:dead")), (std::vector<std::string>{"bad"}));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(SplitTest, ParallelProcessingAggregatesEveryItemExactlyOnceInOrder) {
  RouteHarness h;
  std::mutex mutex;
  std::multiset<int64_t> seen;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .split(body(), AggregationStrategies::groupedBody())
        .parallelProcessing()
        .process([&](Exchange& ex) {
          std::lock_guard lock(mutex);
          seen.insert(ex.message().body().as<int64_t>());
        })
        .end()
        .to("mock:after");
  });
  ValueList list;
  for (int i = 0; i < 200; ++i) list.push_back(i);
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(list)));
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_EQ(std::set<int64_t>(seen.begin(), seen.end()).size(), 200u);
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(), Value(list));
}

TEST(SplitTest, ParallelTimeoutGoesOnWithWhatFinished) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .split(body(), AggregationStrategies::groupedBody())
        .parallelProcessing()
        .timeout(std::chrono::milliseconds(200))
        .delay(simple("${body}"))
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({0, 5000}))));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(), Value(items({0})));
}

TEST(SplitTest, ItemsThatSuspendResumeTheSplit) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(body()).delay(std::chrono::milliseconds(1)).to("mock:item").end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b", "c"}))));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

// Items after the first reuse the sub-exchange of the one before without a full reset
// (runUnit ran it in place): what a step changes outside the message must not carry over.
TEST(SplitTest, EachItemStartsWithTheInputsPatternAndAnIdOfItsOwn) {
  RouteHarness h;
  std::vector<Pattern> patterns;
  std::set<std::string> ids;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").split(body()).process([&](Exchange& ex) {
      patterns.push_back(ex.pattern());
      ids.insert(ex.exchangeId());
      ex.setPattern(Pattern::InOut);
    }).end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(items({"a", "b", "c"}))));
  EXPECT_EQ(patterns, (std::vector<Pattern>(3, Pattern::InOnly)));
  EXPECT_EQ(ids.size(), 3u);
}

TEST(SplitTest, AnItemAfterAFailedOneStartsClean) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .split(body())
        .process([](Exchange& ex) {
          if (ex.message().body() == Value("bad")) throw std::runtime_error("bad item");
        })
        .to("mock:item")
        .end();
  });
  EXPECT_FALSE(h.producer.sendBody("direct:in", Value(items({"a", "bad", "c", "d"}))));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "c", "d"}));
  for (const auto& ex : h.mock("mock:item").receivedExchanges()) EXPECT_FALSE(ex->failed());
}

TEST(SplitTest, NestedSplitsEachKeepTheirOwnPlace) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").split(body()).split(body()).to("mock:item").end().end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in",
                                  Value(items({Value(items({"a", "b"})), Value(items({"c"}))}))));
  EXPECT_EQ(bodies(h.mock("mock:item")), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SplitTest, AStrategyReturningAnotherExchangeFailsTheSplit) {
  RouteHarness h;
  auto stranger = std::make_shared<Exchange>();
  auto bad = aggregationStrategy([stranger](Exchange*, Exchange&) { return stranger.get(); });
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").errorHandler(noErrorHandler()).split(body(), bad).to("mock:item").end();
  });
  auto sent = h.producer.sendBody("direct:in", Value(items({"a", "b"})));
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("returned an exchange other than the two it was given"),
            std::string::npos);
}

TEST(SplitTest, AFailedParallelItemFailsTheExchangeOnceAllRan) {
  RouteHarness h;
  std::atomic<int> ran{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .split(body())
        .parallelProcessing()
        .process([&](Exchange& ex) {
          ++ran;
          if (ex.message().body() == Value("bad")) throw std::runtime_error("bad item");
        })
        .end();
  });
  auto sent = h.producer.sendBody("direct:in", Value(items({"a", "bad", "c", "d"})));
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("bad item"), std::string::npos);
  EXPECT_EQ(ran.load(), 4);
}

TEST(SplitTest, UnknownStrategyRefFailsAtStart) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").split(body()).aggregationStrategyRef("nope").end();
  });
  ASSERT_TRUE(added);
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("no aggregation strategy bound as 'nope'"),
            std::string::npos);
}

TEST(SplitTest, BadTokenizeRegexFailsAtStart) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").split(tokenize("(", true)).end();
  });
  ASSERT_TRUE(added);
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("invalid tokenize regex '('"), std::string::npos);
}

}  // namespace
}  // namespace dromedary
