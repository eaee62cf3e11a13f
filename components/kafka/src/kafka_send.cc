// SPDX-License-Identifier: Apache-2.0
// The send pool. See kafka_send.h.
#include "kafka_send.h"

namespace dromedary::component::kafka {

void Send::makeSlots(size_t count) {
  if (count == 1) {
    one = Slot{};
    slots = {&one, 1};
  } else {
    if (count > manyCapacity) {
      many = std::make_unique<Slot[]>(count);
      manyCapacity = count;
    }
    slots = {many.get(), count};
    for (Slot& slot : slots) slot = Slot{};
  }
  for (Slot& slot : slots) slot.send = this;
}

namespace {

// A thread keeps up to this many sends; a giving thread past it passes them all on.
constexpr size_t kKeep = 256;
// The shared stack holds at most about this many: a burst of sends in flight leaves no more
// than this behind once it is over.
constexpr size_t kMaxShared = 4096;

void deleteChain(Send* head, Send* Send::*next) noexcept {
  while (head) {
    Send* following = head->*next;
    delete head;
    head = following;
  }
}

}  // namespace

// The shared stack: batches pushed whole, and only ever taken whole, so a push cannot be
// fooled by a node taken and pushed again in between (no ABA).
struct SharedSends {
  std::atomic<Send*> head{nullptr};
  std::atomic<size_t> size{0};
  ~SharedSends() { deleteChain(head.load(), &Send::nextFree); }
};

struct LocalSends {
  Send* head = nullptr;
  size_t size = 0;
  ~LocalSends();
};

namespace {

SharedSends shared_sends;
// Set once the thread's list is gone: a send given back after that is deleted.
thread_local bool local_gone = false;
thread_local LocalSends local_sends;

}  // namespace

LocalSends::~LocalSends() {
  local_gone = true;
  deleteChain(head, &Send::nextFree);
}

Send* SendPool::take() {
  LocalSends& local = local_sends;
  if (!local.head && !local_gone) {
    local.head = shared_sends.head.exchange(nullptr, std::memory_order_acquire);
    size_t taken = 0;
    for (Send* s = local.head; s; s = s->nextFree) ++taken;
    local.size = taken;
    if (taken) shared_sends.size.fetch_sub(taken, std::memory_order_relaxed);
  }
  Send* send = local.head;
  if (!send) return new Send;
  local.head = send->nextFree;
  --local.size;
  send->nextFree = nullptr;
  return send;
}

void SendPool::give(Send* send) noexcept {
  send->exchange = nullptr;
  send->settings = nullptr;
  send->client = nullptr;
  send->topic = nullptr;
  send->overrideTopic.clear();
  send->next = 0;
  send->slots = {};
  if (local_gone) {
    delete send;
    return;
  }
  LocalSends& local = local_sends;
  send->nextFree = local.head;
  local.head = send;
  if (++local.size < kKeep) return;
  // Past what a thread keeps: the whole list goes to the shared stack (or, when that is
  // full, away), for a thread that takes sends without giving them back.
  Send* first = local.head;
  size_t count = local.size;
  local.head = nullptr;
  local.size = 0;
  if (shared_sends.size.load(std::memory_order_relaxed) >= kMaxShared) {
    deleteChain(first, &Send::nextFree);
    return;
  }
  Send* last = first;
  while (last->nextFree) last = last->nextFree;
  shared_sends.size.fetch_add(count, std::memory_order_relaxed);
  Send* top = shared_sends.head.load(std::memory_order_relaxed);
  do {
    last->nextFree = top;
  } while (!shared_sends.head.compare_exchange_weak(top, first, std::memory_order_release,
                                                    std::memory_order_relaxed));
}

}  // namespace dromedary::component::kafka
