// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/exchange.h>

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <thread>

namespace dromedary {
namespace {

TEST(ExchangeTest, IdIsCreatedLazilyAndIsStable) {
  ExchangePtr ex = acquireExchange(nullptr);
  const std::string& id = ex->exchangeId();
  EXPECT_FALSE(id.empty());
  EXPECT_EQ(ex->exchangeId(), id);
}

// setBody(${body[n]}): the new body lives in the old one, which the assignment frees.
TEST(ExchangeTest, ABodySetFromAPartOfItselfIsCopiedBeforeTheOldBodyGoes) {
  Exchange ex;
  ex.message().setBody(Value(ValueMap{{"n", Value(int64_t{42})}, {"s", Value("text")}}));
  ex.message().setBody(ex.message().body().getMap()[0].second);
  EXPECT_EQ(ex.message().body().as<int64_t>(), 42);
  ex.message().setBody(Value(ValueMap{{"s", Value("a longer text than fits inline")}}));
  ex.message().setBody(ex.message().body().getMap()[0].second);
  EXPECT_EQ(ex.message().body().as<std::string>(), "a longer text than fits inline");
  ex.message().setBody(Value(ValueList{Value("x"), Value(ValueList{Value("y")})}));
  ex.message().setBody(ex.message().body().getList()[1]);
  EXPECT_EQ(ex.message().body().getList()[0].as<std::string>(), "y");
}

TEST(ExchangeTest, IdsAreUnique) {
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(acquireExchange(nullptr)->exchangeId());
  EXPECT_EQ(ids.size(), 1000u);
}

TEST(ExchangeTest, RecordsCreationTime) {
  ExchangePtr ex = acquireExchange(nullptr);
  EXPECT_GT(ex->createdMillis(), 1'600'000'000'000);
}

TEST(ExchangeTest, FailRecordsCodeReasonAndSubjectWithoutOwningText) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->fail(ErrorCode::NoConsumers, "No consumers available on endpoint", "direct://x");
  EXPECT_TRUE(ex->failed());
  EXPECT_EQ(ex->error().message(), "No consumers available on endpoint: direct://x");
}

TEST(ExchangeTest, ExceptionMessageComesFromWhat) {
  ExchangePtr ex = acquireExchange(nullptr);
  ex->setException(std::make_exception_ptr(std::runtime_error("boom")));
  EXPECT_EQ(ex->error().code, ErrorCode::ProcessorFailed);
  EXPECT_EQ(ex->error().message(), "Exception thrown by processor: boom");
}

TEST(ExchangeTest, PooledExchangeComesBackClean) {
  Exchange* first;
  {
    ExchangePtr ex = acquireExchange(nullptr);
    first = ex.get();
    ex->setPattern(Pattern::InOut);
    ex->message().setHeader("h", 1);
    ex->setProperty("p", 2);
    ex->message().setBody("body");
    ex->fail(ErrorCode::Internal, "x");
  }
  ExchangePtr again = acquireExchange(nullptr);
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(again->pattern(), Pattern::InOnly);
  EXPECT_TRUE(again->message().headers().empty());
  EXPECT_TRUE(again->properties().empty());
  EXPECT_TRUE(again->message().body().isNull());
  EXPECT_FALSE(again->failed());
}

// Made in a thread before the thread's exchange pool, so destroyed after it.
thread_local std::optional<ExchangePtr> held_past_the_pool;

TEST(ExchangeTest, AnExchangeReleasedAfterItsThreadsPoolIsGoneIsDeletedNotPooled) {
  // A thread_local (or, on the main thread, a static) object destroyed after the thread's
  // pool releases its exchange into nothing: it is deleted (valgrind: no invalid write, no
  // leak), and taking one then makes a new one.
  std::thread([] {
    held_past_the_pool.emplace();
    (void)acquireExchange(nullptr);  // one goes back to the pool: the pool then holds one
    *held_past_the_pool = acquireExchange(nullptr);
    ExchangePtr pooled = acquireExchange(nullptr);  // back to the pool when this goes
    (*held_past_the_pool)->message().setBody(Value("kept until the thread ends"));
  }).join();
  SUCCEED();
}

}  // namespace
}  // namespace dromedary
