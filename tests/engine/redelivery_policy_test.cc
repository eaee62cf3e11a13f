// SPDX-License-Identifier: Apache-2.0
// The redelivery delays, computed as Camel's RedeliveryPolicy computes them (no wall time).
#include <gtest/gtest.h>

#include "engine/failure_path.h"

namespace dromedary::detail {
namespace {

RedeliveryPolicyModel pattern(std::string text) {
  RedeliveryPolicyModel m;
  m.delayPattern = std::move(text);
  return m;
}

// The delays before redeliveries 1..n, each from the previous.
std::vector<int64_t> delays(const RedeliveryPolicy& p, int n, double random01 = 0.5,
                            bool coin = true) {
  std::vector<int64_t> out;
  int64_t previous = 0;
  for (int counter = 1; counter <= n; ++counter) {
    previous = redeliveryDelay(p, previous, counter, random01, coin);
    out.push_back(previous);
  }
  return out;
}

TEST(RedeliveryPolicyTest, FixedDelayByDefault) {
  RedeliveryPolicy p;
  EXPECT_EQ(delays(p, 3), (std::vector<int64_t>{1000, 1000, 1000}));
}

TEST(RedeliveryPolicyTest, ExponentialBackOffMultipliesUpToTheMaximum) {
  RedeliveryPolicy p;
  p.redeliveryDelayMs = 500;
  p.useExponentialBackOff = true;
  p.backOffMultiplier = 3;
  p.maximumRedeliveryDelayMs = 10000;
  EXPECT_EQ(delays(p, 5), (std::vector<int64_t>{500, 1500, 4500, 10000, 10000}));
}

TEST(RedeliveryPolicyTest, CollisionAvoidanceVariesByUpToTheFactor) {
  RedeliveryPolicy p;
  p.useCollisionAvoidance = true;
  EXPECT_EQ(redeliveryDelay(p, 0, 1, 1.0, true), 1150);
  EXPECT_EQ(redeliveryDelay(p, 0, 1, 1.0, false), 850);
  EXPECT_EQ(redeliveryDelay(p, 0, 1, 0.0, true), 1000);
}

TEST(RedeliveryPolicyTest, DelayPatternPicksTheLastGroupReached) {
  RedeliveryPolicy p;
  ASSERT_TRUE(applyPolicy(p, pattern("1:100;3:500;5:2000")));
  EXPECT_EQ(delays(p, 6), (std::vector<int64_t>{100, 100, 500, 500, 2000, 2000}));
}

TEST(RedeliveryPolicyTest, DelayPatternBeforeItsFirstGroupIsZero) {
  RedeliveryPolicy p;
  ASSERT_TRUE(applyPolicy(p, pattern("2:100")));
  EXPECT_EQ(delays(p, 2), (std::vector<int64_t>{0, 100}));
}

TEST(RedeliveryPolicyTest, BadOptionsAreRejected) {
  RedeliveryPolicy p;
  RedeliveryPolicyModel negative;
  negative.maximumRedeliveries = -2;
  EXPECT_FALSE(applyPolicy(p, negative));
  RedeliveryPolicy q;
  EXPECT_FALSE(applyPolicy(q, pattern("3:100;2:50")));
  RedeliveryPolicy r;
  RedeliveryPolicyModel factor;
  factor.collisionAvoidanceFactor = 1.5;
  EXPECT_FALSE(applyPolicy(r, factor));
}

}  // namespace
}  // namespace dromedary::detail
