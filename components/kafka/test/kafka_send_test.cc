// SPDX-License-Identifier: Apache-2.0
// The send pool: sends come back for reuse on the thread that gave them, and reach a thread
// that only takes once the giving thread has passed them on; their slots start fresh.
#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "kafka_send.h"

namespace dromedary::component::kafka {
namespace {

TEST(KafkaSendTest, ASendGivenBackIsTakenAgainWithFreshSlots) {
  Send* send = SendPool::take();
  send->makeSlots(3);
  send->slots[1].error = RD_KAFKA_RESP_ERR__MSG_TIMED_OUT;
  send->slots[1].offset = 41;
  send->next = 2;
  SendPool::give(send);
  Send* again = SendPool::take();
  EXPECT_EQ(again, send);
  EXPECT_EQ(again->next, 0u);
  EXPECT_TRUE(again->slots.empty());
  again->makeSlots(2);  // fewer than before: the same buffer, every slot reset
  for (const Slot& slot : again->slots) {
    EXPECT_EQ(slot.send, again);
    EXPECT_EQ(slot.error, RD_KAFKA_RESP_ERR_NO_ERROR);
    EXPECT_EQ(slot.offset, -1);
  }
  again->makeSlots(1);
  EXPECT_EQ(again->slots.size(), 1u);
  EXPECT_EQ(again->slots[0].send, again);
  SendPool::give(again);
}

TEST(KafkaSendTest, SendsGivenBackOnAThreadThatOnlyGivesReachAThreadThatOnlyTakes) {
  std::vector<Send*> mine;
  for (int i = 0; i < 300; ++i) mine.push_back(SendPool::take());
  std::set<Send*> given;
  std::thread giver([&] {
    for (Send* send : mine) {
      given.insert(send);
      SendPool::give(send);
    }
  });
  giver.join();
  // The giver passed its list on at 256 (the rest it deleted with its thread): a fresh thread,
  // with none of its own, takes the shared stack, the giver's batch on top.
  size_t reused = 0;
  std::thread taker([&] {
    std::vector<Send*> taken;
    for (int i = 0; i < 256; ++i) {
      taken.push_back(SendPool::take());
      reused += given.count(taken.back());
    }
    for (Send* send : taken) SendPool::give(send);
  });
  taker.join();
  EXPECT_EQ(reused, 256u);
}

}  // namespace
}  // namespace dromedary::component::kafka
