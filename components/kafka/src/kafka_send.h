// SPDX-License-Identifier: Apache-2.0
#pragma once
// A send in flight (its exchange, its records' slots, the count still to come back) and the
// pool that keeps sends for reuse. A send is taken on the sending thread and given back on
// the thread that finishes it (usually the producer's poll thread): the pool hands sends
// between threads in batches, so that neither side pays an allocation or an atomic per send.
#include <librdkafka/rdkafka.h>

#include <atomic>
#include <memory>
#include <span>
#include <string>

#include <dromedary/core/value.h>

#include "kafka_settings.h"

namespace dromedary {
class Exchange;
}

namespace dromedary::component::kafka {

class ProducerClient;
struct Send;

// One record of a send: where the delivery report puts its outcome. Each slot is written by
// one thread (the sender before handing the record over, the poll thread after).
struct Slot {
  Send* send = nullptr;
  rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
  int32_t partition = -1;
  int64_t offset = -1;
  int64_t timestamp = -1;
};

// `remaining` starts at the record count plus one, the sender's own share, which it gives up
// once every record is handed over: whoever takes it to zero owns the exchange again.
struct Send {
  Exchange* exchange = nullptr;
  const KafkaSettings* settings = nullptr;
  ProducerClient* client = nullptr;
  rd_kafka_topic_t* topic = nullptr;  // the endpoint's; null with kafka.OVERRIDE_TOPIC
  std::string overrideTopic;
  std::atomic<int> remaining{0};
  size_t next = 0;  // the next record to hand over
  std::span<Slot> slots;  // `one` for a single record (most sends), else `many`
  // The last kafka.RECORD_META made by this send, kept with it: an exchange's header shares
  // it, and once that exchange has let go the next send fills it in place (Value's lists and
  // maps copy on write, so a copy someone kept is never changed).
  Value metadata;

  // The pool's link while the send is free.
  Send* nextFree = nullptr;

  // Sets `slots` to `count` fresh slots.
  void makeSlots(size_t count);

 private:
  Slot one;
  std::unique_ptr<Slot[]> many;  // kept between uses, with room for manyCapacity
  size_t manyCapacity = 0;
};

// Sends kept for reuse. Each thread keeps its own; a thread that only gives back (the poll
// thread) passes what it has to the shared stack in batches, and a thread that only takes
// (the sender) takes the whole stack at once when its own run out.
class SendPool {
 public:
  // A send with no records, exchange or settings; its metadata kept from its last use.
  static Send* take();
  // Takes `send` back; nothing of its exchange may be touched through it any more.
  static void give(Send* send) noexcept;
};

}  // namespace dromedary::component::kafka
