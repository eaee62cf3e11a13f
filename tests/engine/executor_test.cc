// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

// Parks each exchange; a separate thread resumes it, as a broker callback would.
class Parker final : public Processor {
 public:
  explicit Parker(bool fail_on_resume = false, bool may_block = true)
      : fail_(fail_on_resume), may_block_(may_block) {
    worker_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      for (;;) {
        cv_.wait(lock, [this] { return parked_ || done_; });
        if (!parked_) return;
        Exchange* ex = parked_;
        parked_ = nullptr;
        lock.unlock();
        resumed_on_ = std::this_thread::get_id();
        resume_may_block_ = dromedary::resumeMayBlock(*ex);
        ex->message().setHeader("parked", true);
        if (fail_) ex->fail(ErrorCode::Timeout, "Reply timed out");
        ex->resume();  // continues the route on this thread
        lock.lock();
      }
    });
  }
  ~Parker() override {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  Status process(Exchange& ex) override {
    std::lock_guard lock(mutex_);
    parked_ = &ex;
    cv_.notify_all();
    return Status::Suspend;
  }
  bool mayBlock() const noexcept override { return may_block_; }
  std::thread::id resumedOn() const { return resumed_on_; }
  bool resumeMayBlock() const { return resume_may_block_; }

 private:
  bool fail_;
  bool may_block_;
  std::mutex mutex_;
  std::condition_variable cv_;
  Exchange* parked_ = nullptr;
  bool done_ = false;
  std::thread::id resumed_on_;
  bool resume_may_block_ = true;
  std::thread worker_;
};

TEST(ExecutorTest, SuspendedExchangeResumesFromAnotherThreadAtTheNextNode) {
  RouteHarness h;
  Parker parker;
  std::thread::id ran_after;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .setHeader("before", constant(1))
        .process(parker)
        .process([&](Exchange& ex) {
          ran_after = std::this_thread::get_id();
          ex.message().setHeader("after", 2);
        })
        .to("mock:out");
  });
  auto& mock = h.mock("mock:out");
  mock.expectedMessageCount(1);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));  // waits for the resumed exchange
  ASSERT_TRUE(mock.assertIsSatisfied());
  const Exchange& got = *mock.receivedExchanges()[0];
  EXPECT_TRUE(got.message().getHeader("before"));
  EXPECT_TRUE(got.message().getHeader("parked"));
  EXPECT_TRUE(got.message().getHeader("after"));
  EXPECT_EQ(ran_after, parker.resumedOn());
  EXPECT_NE(ran_after, std::this_thread::get_id());
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(ExecutorTest, SuspendInsideANestedDirectRouteContinuesTheCallingRoute) {
  RouteHarness h;
  Parker parker;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").to("direct:inner").setHeader("outer", constant("done")).to("mock:out");
    b.from("direct:inner").process(parker).setHeader("inner", constant("done"));
  });
  auto& mock = h.mock("mock:out");
  mock.expectedHeaderReceived("outer", "done");
  mock.expectedHeaderReceived("inner", "done");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(ExecutorTest, AResumeThatRunsNothingThatMayBlockIsRecognised) {
  RouteHarness h;
  Parker last, middle, inner;
  Parker quick(false, /*may_block=*/false), quick_failing(true, /*may_block=*/false);
  h.start([&](RouteBuilder& b) {
    b.from("direct:last").setHeader("a", constant(1)).process(last);
    b.from("direct:middle").process(middle).setHeader("a", constant(1));
    b.from("direct:outer").to("direct:inner").setHeader("a", constant(1));
    b.from("direct:inner").process(inner);
    b.from("direct:quick").process(quick).setHeader("a", constant(1)).to("mock:quick");
    b.from("direct:failing").process(quick_failing).setHeader("a", constant(1));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:last", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:middle", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:outer", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:quick", "x"));
  ASSERT_FALSE(h.producer.sendBody("direct:failing", "x"));
  EXPECT_FALSE(last.resumeMayBlock());  // nothing left but to wake the sender
  EXPECT_TRUE(middle.resumeMayBlock());  // a step of a route that may block follows
  EXPECT_TRUE(inner.resumeMayBlock());   // the calling route (a direct: call) goes on
  EXPECT_FALSE(quick.resumeMayBlock());  // what follows cannot block
  EXPECT_FALSE(quick_failing.resumeMayBlock());  // nor can its error handling
}

TEST(ExecutorTest, AResumeMayBlockUnlessItsCompletionCallbackIsSaidNotTo) {
  RouteHarness h;
  Parker quick(false, /*may_block=*/false);
  h.start([&](RouteBuilder& b) { b.from("direct:quick").process(quick); });
  Producer& entry = *h.context.producer("direct:quick").value();
  for (bool done_may_block : {true, false}) {
    std::atomic<bool> finished{false};
    ExchangePtr ex = h.context.createExchange();
    processAsync(
        *ex, entry,
        [](Exchange&, void* flag) {
          static_cast<std::atomic<bool>*>(flag)->store(true);
          static_cast<std::atomic<bool>*>(flag)->notify_all();
        },
        &finished, done_may_block);
    finished.wait(false);
    EXPECT_EQ(quick.resumeMayBlock(), done_may_block);
  }
}

TEST(ExecutorTest, FailureSetBeforeResumeFailsTheExchange) {
  RouteHarness h;
  Parker parker(/*fail_on_resume=*/true);
  h.start([&](RouteBuilder& b) { b.from("direct:in").process(parker).to("mock:out"); });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::Timeout);
  EXPECT_EQ(sent.error().message, "Reply timed out");
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
}

TEST(ExecutorTest, ThrowingProcessorFailsTheExchangeWithNodeAndRoute) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").process([](Exchange&) {
      throw std::runtime_error("bad input");
    }).id("validate").to("mock:out");
  });
  ExchangePtr ex = h.context.createExchange();
  ex->message().setBody("x");
  auto sent = h.producer.send("direct:in", *ex);
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message, "Exception thrown by processor: bad input");
  EXPECT_EQ(ex->error().nodeId, "validate");
  EXPECT_EQ(ex->error().routeId, "r");
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(ExecutorTest, DirectChainRunsInTheCallersThreadInOrder) {
  RouteHarness h;
  std::vector<std::string> order;
  std::thread::id caller = std::this_thread::get_id();
  bool same_thread = true;
  auto mark = [&](std::string name) {
    return [&, name](Exchange&) {
      order.push_back(name);
      same_thread = same_thread && std::this_thread::get_id() == caller;
    };
  };
  h.start([&](RouteBuilder& b) {
    b.from("direct:a").process(mark("a1")).to("direct:b").process(mark("a2"));
    b.from("direct:b").process(mark("b1")).to("direct:c").process(mark("b2"));
    b.from("direct:c").process(mark("c"));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(order, (std::vector<std::string>{"a1", "b1", "c", "b2", "a2"}));
  EXPECT_TRUE(same_thread);
}

TEST(ExecutorTest, BlocksNestedDeeperThanTheFrameStackFailCleanly) {
  RouteHarness h;
  bool reached = false;
  h.start([&](RouteBuilder& b) {
    RouteDefinition& r = b.from("direct:deep").routeId("deep");
    for (int i = 0; i < 40; ++i) r.filter(constant(true));  // each filter nests the next
    r.process([&](Exchange&) { reached = true; });
  });
  auto sent = h.producer.sendBody("direct:deep", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::LimitExceeded);
  EXPECT_NE(sent.error().message.find("nested deeper than 32 levels: deep"), std::string::npos)
      << sent.error().message;
  EXPECT_FALSE(reached);
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(ExecutorTest, RoutesNestedDeeperThanTheFrameStackFailCleanly) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:loop").to("direct:loop");  // unbounded recursion
  });
  auto sent = h.producer.sendBody("direct:loop", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::LimitExceeded);
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(ExecutorTest, TemplateCallFromInsideAProcessorRunsToCompletion) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:outer").process([&](Exchange& ex) {
      auto reply = h.producer.requestBody("direct:inner", ex.message().body());
      ex.message().setBody(*reply);
    }).to("mock:out");
    b.from("direct:inner").setBody(constant("from inner"));
  });
  auto& mock = h.mock("mock:out");
  mock.expectedBodiesReceived({"from inner"});
  ASSERT_TRUE(h.producer.sendBody("direct:outer", "x"));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

}  // namespace
}  // namespace dromedary
